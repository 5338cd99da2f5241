package dev.metahooks.server.config;

/**
 * A setting the server cannot start with: a bad value, a file it cannot read or use, a port it cannot bind.
 * The message is one line that names the setting; the process prints it and exits with code 2.
 */
public final class ConfigurationException extends IllegalArgumentException {
  public ConfigurationException(String message) {
    super(message);
  }

  public ConfigurationException(String message, Throwable cause) {
    super(message, cause);
  }
}
