/**
 * <b>Internal</b>: not part of the public API; it may change in any release. Exceptions, public API (see
 * {@link dev.metahooks.Metahooks}): {@code HookServer}, {@code ServerConfig}, {@code ConfigurationException},
 * {@code InProcessHooks} and {@code PemFiles}.
 */
package dev.metahooks.server;
