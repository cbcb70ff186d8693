package org.jdvm.client;

/**
 * How a job ended ({@code PMIX_EVENT_JOB_END}).
 *
 * @param nspace the job
 * @param status {@code PMIX_JOB_TERM_STATUS}: SUCCESS, or why it failed (e.g. {@code
 *     PMIX_ERR_JOB_CANCELED})
 * @param exitCode {@code PMIX_EXIT_CODE} as a shell reports it (128 + signal if a signal ended it)
 */
public record JobEnd(String nspace, int status, int exitCode) {}
