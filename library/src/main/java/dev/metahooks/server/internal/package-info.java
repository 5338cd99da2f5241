/**
 * <b>Internal</b>: not part of the public API; it may change in any release. The server's machinery behind
 * {@code dev.metahooks.server}: the route table, admission and deadlines, the request path from the body to the
 * written reply, the response cache, recordings, redaction, metrics and the HTTP stack.
 */
package dev.metahooks.server.internal;
