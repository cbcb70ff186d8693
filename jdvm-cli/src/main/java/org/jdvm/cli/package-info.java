/**
 * The {@code jdvm} command line: argument parsing, output formatting and exit statuses.
 *
 * <p>Every subcommand is registered once, in {@link org.jdvm.cli.Subcommand}: its name, its picocli
 * object and, for {@code jdvm run}, the lean parser that skips picocli. {@link org.jdvm.cli.Main}
 * derives the full model and the one-command models from it.
 */
package org.jdvm.cli;
