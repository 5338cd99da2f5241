/**
 * <b>Public API</b>: {@link dev.metahooks.Metahooks} starts a server for a list of controllers. Public API packages
 * are {@code dev.metahooks} (this class only), {@code dev.metahooks.api}, {@code dev.metahooks.kube}, and in
 * {@code dev.metahooks.server} the classes {@code HookServer}, {@code ServerConfig} and
 * {@code ConfigurationException}. Everything else is internal: it may change in any release.
 */
package dev.metahooks;
