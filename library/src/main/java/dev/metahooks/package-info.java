/**
 * <b>Public API</b>: {@link dev.metahooks.Metahooks} starts a server for a list of controllers. Public API packages
 * are {@code dev.metahooks} (this class, and {@code BuiltInControllers} of the {@code metahooks} artifact, which serves
 * the built-in controllers beside one's own), {@code dev.metahooks.api}, {@code dev.metahooks.kube},
 * {@code dev.metahooks.server.config} (the settings: {@code ServerConfig}, {@code ConfigurationException}), and in
 * {@code dev.metahooks.server} the classes {@code HookServer}, {@code InProcessHooks} (a hook call through the
 * server's request path, without a socket) and {@code PemFiles} (TLS from a Kubernetes TLS Secret's files).
 * Everything else is internal: it may change in any release. The jar is used on the class path, where nothing
 * stops an import of an internal class: the testing kit's
 * {@code dev.metahooks.testing.PublicApi.assertOnlyPublicApiIn(...)} fails a project's build that uses one.
 */
package dev.metahooks;
