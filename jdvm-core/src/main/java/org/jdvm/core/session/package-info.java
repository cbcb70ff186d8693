/**
 * Sessions and the scheduler: session control and time limits (decisions.md #13–#14;
 * session-and-job-objects.txt §7.2.2; prrte-behavior.md §1.14).
 *
 * <p>Role: instantiate sessions (standing, or auto-completing with apps), terminate, extend, pause
 * and resume, preempt and restore, signal, separate; arm and fire time limits.
 *
 * <p>Invariants: only the scheduler instantiates; a session is detached from its requester unless
 * PMIX_SESSION_SEP is false; a terminated session ends when its last job has ended and its children
 * end with it unless separated; the scheduler hears PMIX_SESSION_COMPLETE once per session it
 * instantiated (emitted by {@code lifecycle.AllocationEnding}); no job is stopped or continued
 * twice.
 */
package org.jdvm.core.session;
