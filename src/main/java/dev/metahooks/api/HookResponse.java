package dev.metahooks.api;

/** What a hook answers: one of the three response types of Metacontroller's hooks. */
public sealed interface HookResponse permits CompositeResponse, DecoratorResponse, CustomizeResponse {
  /** How many objects the answer lists (children, attachments, related-resource rules), for the access log. */
  int objectCount();
}
