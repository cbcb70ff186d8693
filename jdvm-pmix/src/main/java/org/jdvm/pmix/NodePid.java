package org.jdvm.pmix;

/** A process id on a named node ({@code pmix_node_pid_t}, v61). */
public record NodePid(String hostname, long nodeId, long pid) {}
