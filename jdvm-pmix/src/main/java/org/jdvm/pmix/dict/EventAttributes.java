package org.jdvm.pmix.dict;

import java.util.List;

/**
 * Event handlers and notifications (pmix-wire.md §9.5).
 *
 * <p>Data, not code: one attribute per line, "key | C name[, aliases] | type in master | type in
 * 4.2.2 (or absent) | description". Keys, names and types come from libpmix 4.2.2's dictionary and
 * the master headers (jdvm-pmix's test resources {@code wire/dict_422.json} and {@code
 * wire/attr_diff.txt}, pmix-wire.md §10–§11); the descriptions are jdvm's own. "varies" is a type
 * that depends on the use.
 */
final class EventAttributes {
  private EventAttributes() {}

  static final String TITLE = "Events";

  static final List<Attribute> ALL =
      AttributeTable.parse(
          """
          pmix.evname | PMIX_EVENT_HDLR_NAME | STRING | STRING | The name of an event handler, by which others can order themselves around it.
          pmix.evfirst | PMIX_EVENT_HDLR_FIRST | BOOL | BOOL | Run this handler before every other.
          pmix.evlast | PMIX_EVENT_HDLR_LAST | BOOL | BOOL | Run this handler after every other.
          pmix.evfirstcat | PMIX_EVENT_HDLR_FIRST_IN_CATEGORY | BOOL | BOOL | Run this handler first among those for the same codes.
          pmix.evlastcat | PMIX_EVENT_HDLR_LAST_IN_CATEGORY | BOOL | BOOL | Run this handler last among those for the same codes.
          pmix.evbefore | PMIX_EVENT_HDLR_BEFORE | STRING | STRING | Run this handler before the named one.
          pmix.evafter | PMIX_EVENT_HDLR_AFTER | STRING | STRING | Run this handler after the named one.
          pmix.evprepend | PMIX_EVENT_HDLR_PREPEND | BOOL | BOOL | Put this handler at the front of its category.
          pmix.evappend | PMIX_EVENT_HDLR_APPEND | BOOL | BOOL | Put this handler at the end of its category.
          pmix.evrange | PMIX_EVENT_CUSTOM_RANGE | DATA_ARRAY | DATA_ARRAY | The processes an event with the custom range goes to: an array of procs.
          pmix.evproc | PMIX_EVENT_AFFECTED_PROC | PROC | PROC | The one process an event concerns.
          pmix.evaffected | PMIX_EVENT_AFFECTED_PROCS | DATA_ARRAY | DATA_ARRAY | The processes an event concerns: an array of procs.
          pmix.evnondef | PMIX_EVENT_NON_DEFAULT | BOOL | BOOL | Deliver the event only to handlers registered for its code, not to default handlers.
          pmix.evobject | PMIX_EVENT_RETURN_OBJECT | POINTER | POINTER | An object the handler hands back to the registrar.
          pmix.evnocache | PMIX_EVENT_DO_NOT_CACHE | BOOL | BOOL | Do not keep the event for handlers registered later.
          pmix.evsilentterm | PMIX_EVENT_SILENT_TERMINATION | BOOL | BOOL | Do not generate an event when this job terminates normally.
          pmix.evproxy | PMIX_EVENT_PROXY | PROC | PROC | The process that generated the event on behalf of another.
          pmix.evtext | PMIX_EVENT_TEXT_MESSAGE | STRING | STRING | A human-readable text accompanying an event.
          pmix.evtstamp | PMIX_EVENT_TIMESTAMP | TIME | TIME | When the event happened.
          pmix.evone | PMIX_EVENT_ONESHOT | BOOL | BOOL | Remove the handler after it has run once.
          pmix.evterm.sess | PMIX_EVENT_TERMINATE_SESSION | BOOL | BOOL | The event handler asks that the session be terminated.
          pmix.evterm.job | PMIX_EVENT_TERMINATE_JOB | BOOL | BOOL | The event handler asks that the job be terminated.
          pmix.evterm.node | PMIX_EVENT_TERMINATE_NODE | BOOL | BOOL | The event handler asks that the node be shut down.
          pmix.evterm.proc | PMIX_EVENT_TERMINATE_PROC | BOOL | BOOL | The event handler asks that the process be terminated.
          pmix.evtimeout | PMIX_EVENT_ACTION_TIMEOUT | INT | INT | Seconds the event's recipients have to act before the sender proceeds.
          pmix.evnoterm | PMIX_EVENT_NO_TERMINATION | BOOL | BOOL | Handling the event does not require terminating anything.
          pmix.evterm | PMIX_EVENT_WANT_TERMINATION | BOOL | BOOL | The sender expects the affected processes to terminate.
          pmix.evlocal | PMIX_EVENT_STAYS_LOCAL | BOOL | absent | Deliver the event only to local processes.
          """);
}
