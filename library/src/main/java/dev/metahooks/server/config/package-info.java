/**
 * <b>Public API</b>: the server's settings. {@link dev.metahooks.server.config.ServerConfig} holds them, read from the
 * {@code METAHOOKS_*} environment variables or made with its builder; a
 * {@link dev.metahooks.server.config.ConfigurationException} names a setting that cannot be used. Both the server's
 * public classes and its machinery use this package; it uses neither.
 */
package dev.metahooks.server.config;
