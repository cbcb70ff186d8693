/**
 * {@code jdvm pmix encode|decode}: the codec of {@code org.jdvm.pmix.codec} on the command line,
 * for whoever debugs a capture or checks jdvm against the real library.
 *
 * <p>Invariants: the JSON is the form of the golden vectors of pmix-wire.md §12.2 ({@link
 * org.jdvm.pmix.json.ValueJson}); one invocation is one pack call; malformed input is one line on
 * standard error and exit status 3, a command line that is not understood exit status 2.
 */
package org.jdvm.cli.pmix;
