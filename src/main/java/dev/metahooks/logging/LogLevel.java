package dev.metahooks.logging;

import java.util.Locale;

/** Levels from the most to the least severe; a logger writes events at its threshold or more severe. */
enum LogLevel {
  ERROR,
  WARN,
  INFO,
  DEBUG,
  TRACE;

  static LogLevel parse(String text) {
    if (text == null || text.isBlank()) {
      return INFO;
    }
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return INFO;
    }
  }

  static LogLevel of(org.slf4j.event.Level level) {
    return valueOf(level.name());
  }
}
