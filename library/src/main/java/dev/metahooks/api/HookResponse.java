package dev.metahooks.api;

/** What a hook answers: one of the three response types of Metacontroller's hooks. */
public sealed interface HookResponse
    permits CompositeResponse, DecoratorResponse, CustomizeResponse {
  /** How many objects the answer lists (children, attachments, related-resource rules), for the access log. */
  int objectCount();

  /**
   * Seconds after which the hook asks to be called again, or null. An answer that carries it depends on the time as
   * well as on the request (a maintenance window that opens later), so the server's response cache does not keep
   * it: the same request bytes later may need another answer. Composite and decorator answers carry the field.
   */
  default Double resyncAfterSeconds() {
    return null;
  }
}
