package org.jdvm.host;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The messages one logger publishes while a test runs, at {@code level} and above: {@code try
 * (LogCapture log = LogCapture.of("org.jdvm.server.pmix", Level.ALL)) { ...; log.lines() }}.
 * Closing it restores the logger as it was.
 */
public final class LogCapture extends Handler implements AutoCloseable {
  private final Logger logger;
  private final Level saved;
  private final List<String> lines = new CopyOnWriteArrayList<>();

  private LogCapture(Logger logger, Level level) {
    this.logger = logger;
    this.saved = logger.getLevel();
    logger.setLevel(level);
    logger.addHandler(this);
  }

  public static LogCapture of(String logger, Level level) {
    return new LogCapture(Logger.getLogger(logger), level);
  }

  /** The messages published so far, in order. */
  public List<String> lines() {
    return lines;
  }

  @Override
  public void publish(LogRecord r) {
    lines.add(r.getMessage());
  }

  @Override
  public void flush() {}

  @Override
  public void close() {
    logger.removeHandler(this);
    logger.setLevel(saved);
  }
}
