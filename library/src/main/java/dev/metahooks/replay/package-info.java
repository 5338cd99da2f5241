/**
 * <b>Internal</b>: not part of the public API; it may change in any release. The inputs of one hook call that are
 * not in its request (the time, the secrets it generated), kept by the server for its recordings and given back to
 * the hooks when {@code metahooks diff} replays one.
 */
package dev.metahooks.replay;
