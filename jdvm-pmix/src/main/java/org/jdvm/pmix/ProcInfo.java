package org.jdvm.pmix;

/**
 * Process information ({@code pmix_proc_info_t}). The exit code is not transmitted (pmix-wire.md §6
 * #2), so an unpacked value always reads 0 there.
 *
 * @param pid an unsigned 32-bit pid
 * @param state a {@code pmix_proc_state_t} byte
 */
public record ProcInfo(
    Proc proc, String hostname, String executableName, long pid, int exitCode, int state) {}
