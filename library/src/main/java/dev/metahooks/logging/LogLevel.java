package dev.metahooks.logging;

import java.util.Locale;
import java.util.Optional;

/** Levels from the most to the least severe; a logger writes events at its threshold or more severe. */
enum LogLevel {
  ERROR,
  WARN,
  INFO,
  DEBUG,
  TRACE;

  /** The level {@code text} names, {@code fallback} when it is unset or names none (the settings check refuses it). */
  static LogLevel parse(String text, LogLevel fallback) {
    return text == null || text.isBlank() ? fallback : named(text).orElse(fallback);
  }

  static LogLevel parse(String text) {
    return parse(text, INFO);
  }

  /** The level {@code text} names, ignoring case and surrounding blanks. */
  static Optional<LogLevel> named(String text) {
    try {
      return Optional.of(valueOf(text.trim().toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  static LogLevel of(org.slf4j.event.Level level) {
    return valueOf(level.name());
  }
}
