package dev.metahooks.server;

import java.util.Map;

/**
 * Settings read from the environment, each with a default that works without configuration.
 *
 * @param port {@code METAHOOKS_PORT}, default 8080
 * @param maxBodyBytes {@code METAHOOKS_MAX_BODY_BYTES}, default 64 MiB. Metacontroller sends whole objects
 *     with no limit of its own (a CatSet of 10,000 pods is about 30 MB), so the default is generous.
 */
public record ServerConfig(int port, long maxBodyBytes) {
  public static final int DEFAULT_PORT = 8080;
  public static final long DEFAULT_MAX_BODY_BYTES = 64L * 1024 * 1024;

  public ServerConfig {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("METAHOOKS_PORT must be 0..65535, got " + port);
    }
    if (maxBodyBytes < 1) {
      throw new IllegalArgumentException("METAHOOKS_MAX_BODY_BYTES must be positive, got " + maxBodyBytes);
    }
  }

  public static ServerConfig defaults() {
    return new ServerConfig(DEFAULT_PORT, DEFAULT_MAX_BODY_BYTES);
  }

  public static ServerConfig fromEnvironment(Map<String, String> env) {
    return new ServerConfig(
        (int) number(env, "METAHOOKS_PORT", DEFAULT_PORT),
        number(env, "METAHOOKS_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES));
  }

  public ServerConfig withPort(int newPort) {
    return new ServerConfig(newPort, maxBodyBytes);
  }

  public ServerConfig withMaxBodyBytes(long bytes) {
    return new ServerConfig(port, bytes);
  }

  private static long number(Map<String, String> env, String name, long fallback) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number, got '" + value + "'");
    }
  }
}
