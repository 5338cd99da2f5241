package dev.metahooks.logging;

import java.util.List;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;
import org.slf4j.event.Level;
import org.slf4j.event.LoggingEvent;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.LoggingEventAware;

/** A logger that hands each event, with its key-value pairs, to the shared {@link JsonLogWriter}. */
final class JsonLogger extends AbstractLogger implements LoggingEventAware {
  private final LogLevel threshold;
  private final transient JsonLogWriter writer;

  JsonLogger(String name, LogLevel threshold, JsonLogWriter writer) {
    this.name = name;
    this.threshold = threshold;
    this.writer = writer;
  }

  private boolean enabled(LogLevel level) {
    return level.compareTo(threshold) <= 0;
  }

  @Override
  public boolean isTraceEnabled() {
    return enabled(LogLevel.TRACE);
  }

  @Override
  public boolean isTraceEnabled(Marker marker) {
    return isTraceEnabled();
  }

  @Override
  public boolean isDebugEnabled() {
    return enabled(LogLevel.DEBUG);
  }

  @Override
  public boolean isDebugEnabled(Marker marker) {
    return isDebugEnabled();
  }

  @Override
  public boolean isInfoEnabled() {
    return enabled(LogLevel.INFO);
  }

  @Override
  public boolean isInfoEnabled(Marker marker) {
    return isInfoEnabled();
  }

  @Override
  public boolean isWarnEnabled() {
    return enabled(LogLevel.WARN);
  }

  @Override
  public boolean isWarnEnabled(Marker marker) {
    return isWarnEnabled();
  }

  @Override
  public boolean isErrorEnabled() {
    return enabled(LogLevel.ERROR);
  }

  @Override
  public boolean isErrorEnabled(Marker marker) {
    return isErrorEnabled();
  }

  @Override
  protected String getFullyQualifiedCallerName() {
    return null;
  }

  @Override
  protected void handleNormalizedLoggingCall(
      Level level, Marker marker, String pattern, Object[] arguments, Throwable throwable) {
    writer.write(
        level.name(),
        name,
        MessageFormatter.basicArrayFormat(pattern, arguments),
        List.of(),
        throwable);
  }

  /** The fluent API's path: key-value pairs arrive separately and become JSON fields. */
  @Override
  public void log(LoggingEvent event) {
    if (!enabled(LogLevel.of(event.getLevel()))) {
      return;
    }
    List<KeyValuePair> pairs =
        event.getKeyValuePairs() == null ? List.of() : event.getKeyValuePairs();
    Object[] arguments = event.getArgumentArray();
    String message =
        arguments == null
            ? event.getMessage()
            : MessageFormatter.basicArrayFormat(event.getMessage(), arguments);
    writer.write(event.getLevel().name(), name, message, pairs, event.getThrowable());
  }
}
