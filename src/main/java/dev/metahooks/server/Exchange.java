package dev.metahooks.server;

/**
 * A reply, what holds memory and a slot for it, and what the server needs to know of the request: whether its
 * body was read, whether a worker past the deadline may still be reading it (then it is left alone), and the
 * bytes (kept only to log them).
 */
record Exchange(Reply reply, boolean bodyRead, boolean bodyInUse, byte[] request, Admission.Ticket ticket) {
  static Exchange unread(HookError error) {
    return unread(error, Admission.Ticket.NONE);
  }

  static Exchange unread(HookError error, Admission.Ticket ticket) {
    return new Exchange(Reply.of(error), false, false, null, ticket);
  }

  /** The call was given up on while its worker may still be reading the body. */
  static Exchange abandoned(HookError error, Admission.Ticket ticket) {
    return new Exchange(Reply.of(error), false, true, null, ticket);
  }

  static Exchange read(Reply reply, byte[] request) {
    return new Exchange(reply, true, false, request, Admission.Ticket.NONE);
  }

  Exchange holding(Admission.Ticket held) {
    return new Exchange(reply, bodyRead, bodyInUse, request, held);
  }
}
