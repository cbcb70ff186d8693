/**
 * One codec per PMIx message body: what each request and reply holds, written and read in one place
 * for the endpoint that serves it, the node agent's relay that reads the few it answers itself, and
 * the Java client that sends it (docs/wireup.md §c, docs/protocol.md "How jdvm reads the standard
 * commands").
 *
 * <p>Role: each body is a record with {@code write(WireFormat)}, the whole body in a peer's format
 * (a request's command first), and a static {@code read(Unpacker ...)}, the inverse; a request is
 * read after its command, which whoever dispatches on it has read. Bodies: {@link
 * org.jdvm.pmix.body.CommitRequest}, {@link org.jdvm.pmix.body.FenceRequest}, {@link
 * org.jdvm.pmix.body.GetRequest} and {@link org.jdvm.pmix.body.GetReply}, {@link
 * org.jdvm.pmix.body.JobDataReply} (REQ), {@link org.jdvm.pmix.body.PublishRequest}, {@link
 * org.jdvm.pmix.body.KeysRequest} (lookup, unpublish) and {@link org.jdvm.pmix.body.LookupReply},
 * {@link org.jdvm.pmix.body.ConnectNbRequest} (connect, disconnect) and {@link
 * org.jdvm.pmix.body.ConnectNbReply}, {@link org.jdvm.pmix.body.LogRequest}, {@link
 * org.jdvm.pmix.body.IofPushRequest}; {@link org.jdvm.pmix.body.AllocRequest}, {@link
 * org.jdvm.pmix.body.SessionCtrlRequest}, {@link org.jdvm.pmix.body.QueryRequest} and {@link
 * org.jdvm.pmix.body.JobControlRequest}, answered with an {@link org.jdvm.pmix.body.InfosReply};
 * {@link org.jdvm.pmix.body.SpawnNbRequest} and {@link org.jdvm.pmix.body.SpawnReply}; {@link
 * org.jdvm.pmix.body.NotifyRequest}; {@link org.jdvm.pmix.body.AbortRequest}, {@link
 * org.jdvm.pmix.body.IofPullRequest} and {@link org.jdvm.pmix.body.IofDeregRequest}; and {@link
 * org.jdvm.pmix.body.StatusReply}, the lone STATUS most commands answer. {@link
 * org.jdvm.pmix.body.Fields} holds the counted lists bodies share, {@link
 * org.jdvm.pmix.body.Frames} a body inside a whole frame.
 *
 * <p>Invariants: a body is laid out as a libpmix 4.2.2 peer lays it out, each list's unit absent
 * when the list is empty; {@code read} is bounded as {@link org.jdvm.pmix.codec.Unpacker} is and
 * fails only with a {@link org.jdvm.pmix.codec.WireException}, or with what the reader's {@link
 * org.jdvm.pmix.body.Checks} throw, checked field by field as the body is read; a reply's payload
 * is read only after a SUCCESS status. What a directive means, and what is allowed, is the
 * reader's: the records hold what came. No I/O: pure functions of their arguments.
 *
 * <p>A new PMIx operation's body goes here, as one more record, tested against libpmix's bytes
 * where they are known.
 */
package org.jdvm.pmix.body;
