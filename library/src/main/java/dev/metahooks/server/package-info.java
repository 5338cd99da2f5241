/**
 * <b>Public API</b>: running controllers as webhooks. {@link dev.metahooks.server.HookServer} serves them over HTTP
 * with the settings of a {@link dev.metahooks.server.config.ServerConfig} (package {@code dev.metahooks.server.config});
 * {@link dev.metahooks.server.InProcessHooks} answers hook calls without a socket, as the server would;
 * {@link dev.metahooks.server.PemFiles} reads the PEM files of a TLS Secret. How the server does it is in
 * {@code dev.metahooks.server.internal}, which uses the settings and never this package.
 */
package dev.metahooks.server;
