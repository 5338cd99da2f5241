package dev.metahooks.json;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;

/** A body that would make a larger tree than its size allows ({@link RequestReader}). */
public final class TreeTooLargeException extends StreamConstraintsException {
  private static final long serialVersionUID = 1L;

  TreeTooLargeException(String message) {
    super(message);
  }
}
