package org.jdvm.core;

/**
 * Everything the shell hands the core: a {@link Request} from a client (imperative; answered
 * exactly once with a {@link Effect.Reply}) or a {@link Report} of an outside fact (past tense in
 * meaning; never answered).
 */
public sealed interface Command permits Request, Report {}
