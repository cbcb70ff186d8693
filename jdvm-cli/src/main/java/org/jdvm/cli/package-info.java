/** The {@code jdvm} command line: argument parsing, output formatting and exit statuses. */
package org.jdvm.cli;
