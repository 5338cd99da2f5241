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
 * <p>{@code METAHOOKS_LOG_LEVEL} sets the level of metahooks' own loggers (error, warn, info, debug; default
 * info): at debug they tell the server's decisions (routing, admission, cache hits, redaction).
 * {@code METAHOOKS_LIBRARY_LOG_LEVEL} sets the level of every other logger, Jetty's and Javalin's (default
 * warn), so that debugging metahooks does not bury its lines under Jetty's internals.
 *
 * <p>The jar registers no provider ({@code META-INF/services}): an application that uses metahooks as a library
 * keeps its own SLF4J provider. metahooks' own entry point, {@code java -jar metahooks.jar} and the image, chooses
 * this one with {@link #useForThisProcess()}.
 */
public final class JsonLogging implements SLF4JServiceProvider {
  public static final String LEVEL_VARIABLE = "METAHOOKS_LOG_LEVEL";
  public static final String LIBRARY_LEVEL_VARIABLE = "METAHOOKS_LIBRARY_LOG_LEVEL";
  private static final String OWN_LOGGERS = "dev.metahooks.";
  private static final String PROVIDER_PROPERTY = "slf4j.provider";
  private static final String VERBOSITY_PROPERTY = "slf4j.internal.verbosity";

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

  /**
   * Makes this the SLF4J provider of the process (SLF4J's {@code slf4j.provider} property), unless one was
   * chosen already; it must run before the first logger is made.
   */
  public static void useForThisProcess() {
    if (System.getProperty(PROVIDER_PROPERTY) == null) {
      System.setProperty(PROVIDER_PROPERTY, JsonLogging.class.getName());
      // SLF4J announces a provider chosen by the property on standard error, which carries JSON
      // lines only.
      if (System.getProperty(VERBOSITY_PROPERTY) == null) {
        System.setProperty(VERBOSITY_PROPERTY, "WARN");
      }
    }
  }

  /** Whether {@code text} names a level (error, warn, info, debug, trace; case and blanks ignored). */
  public static boolean isLevel(String text) {
    return LogLevel.named(text).isPresent();
  }

  @Override
  public void initialize() {
    LogLevel own = LogLevel.parse(System.getenv(LEVEL_VARIABLE), LogLevel.INFO);
    LogLevel libraries = LogLevel.parse(System.getenv(LIBRARY_LEVEL_VARIABLE), LogLevel.WARN);
    JsonLogWriter writer = new JsonLogWriter(System.err);
    loggers = name -> new JsonLogger(name, name.startsWith(OWN_LOGGERS) ? own : libraries, writer);
  }
}
