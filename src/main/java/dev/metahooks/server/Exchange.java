package dev.metahooks.server;

/**
 * A reply, what it holds while it is written, and what the server needs to know of the request: whether its body
 * was read, whether a reader past the deadline may still be reading it (then it is left alone), and the bytes
 * (kept only to log them).
 */
record Exchange(Reply reply, boolean bodyRead, boolean bodyInUse, byte[] request, Admission.Bytes answer) {
  static Exchange unread(HookError error) {
    return new Exchange(Reply.of(error), false, false, null, Admission.Bytes.NONE);
  }

  /** The call was given up on while its body may still be arriving. */
  static Exchange abandoned(HookError error) {
    return new Exchange(Reply.of(error), false, true, null, Admission.Bytes.NONE);
  }

  /** A refusal or a fault after the whole body was read: the connection can serve the next call. */
  static Exchange read(HookError error) {
    return read(Reply.of(error), null, Admission.Bytes.NONE);
  }

  static Exchange read(Reply reply, byte[] request, Admission.Bytes answer) {
    return new Exchange(reply, true, false, request, answer);
  }
}
