package dev.metahooks.logging;

import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * SLF4J's binding for metahooks: every log event, ours and the libraries', becomes one JSON object on one line
 * of standard error (standard output carries the offline CLI's answers). Key-value pairs given through
 * SLF4J's fluent API ({@code LOG.atInfo().addKeyValue("controller", name).log("hook call")}) become fields.
 *
 * <p>{@code METAHOOKS_LOG_LEVEL} sets the level (error, warn, info, debug; default info). Jetty and Javalin
 * log at warn and above unless the level is debug.
 */
public final class JsonLogging implements SLF4JServiceProvider {
  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final MDCAdapter mdc = new NOPMDCAdapter();
  private ILoggerFactory loggers;

  @Override
  public ILoggerFactory getLoggerFactory() {
    return loggers;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {
    LogLevel level = LogLevel.parse(System.getenv("METAHOOKS_LOG_LEVEL"));
    JsonLogWriter writer = new JsonLogWriter(System.err);
    loggers = name -> new JsonLogger(name, thresholdFor(name, level), writer);
  }

  private static LogLevel thresholdFor(String name, LogLevel level) {
    boolean library = name.startsWith("org.eclipse.jetty") || name.startsWith("io.javalin");
    return library && level.compareTo(LogLevel.DEBUG) < 0 ? LogLevel.WARN : level;
  }
}
