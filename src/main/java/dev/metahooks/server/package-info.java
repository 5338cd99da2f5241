/**
 * <b>Internal</b>: not part of the public API; it may change in any release. Exception: {@code HookServer}, {@code ServerConfig} and {@code ConfigurationException} are public API
 * (see {@link dev.metahooks.Metahooks}).
 */
package dev.metahooks.server;
