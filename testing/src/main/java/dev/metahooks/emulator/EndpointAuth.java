package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.server.PemFiles;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Locale;
import javax.net.ssl.SSLContext;

/**
 * The {@code Authorization} header Metacontroller sends to a hook, resolved once when the controller is
 * created, as pkg/hooks/endpoint_config.go and auth.go do: the webhook's own {@code authorization} or
 * {@code basicAuth} if it sets any TLS or auth field, else the first {@code spec.endpointConfigs} entry whose
 * host matches the webhook's URL. {@code authorization} sends {@code <type> <trimmed secret value>} (type
 * default {@code Bearer}, {@code Basic} refused); {@code basicAuth} sends {@code Basic base64(user:password)}
 * of trimmed values; {@code caBundle} replaces the trusted roots and {@code clientTLS} presents a client
 * certificate (pkg/hooks/cabundle.go, auth.go ResolveClientTLS).
 */
final class EndpointAuth {
  private EndpointAuth() {}

  /** What a webhook's connection uses: the Authorization header and a TLS context (each null for none). */
  record Resolved(String authorization, SSLContext tls) {}

  /** The header and TLS of a hook's webhook of the manifest as written (its original URL). */
  static Resolved resolve(Cluster cluster, JsonNode webhook, JsonNode endpointConfigs) {
    if (!webhook.isObject()) {
      return new Resolved(null, null);
    }
    JsonNode source = webhook;
    boolean own = false;
    for (String field : new String[] {"caBundle", "clientTLS", "authorization", "basicAuth"}) {
      own |= webhook.has(field);
    }
    if (!own) {
      source = match(url(webhook), endpointConfigs);
      if (source == null) {
        return new Resolved(null, null);
      }
    }
    boolean token = source.has("authorization");
    boolean basic = source.has("basicAuth");
    if (token && basic) {
      throw new IllegalArgumentException("authorization and basicAuth are mutually exclusive");
    }
    String header =
        token
            ? authorization(cluster, source.get("authorization"))
            : basic ? basicAuth(cluster, source.get("basicAuth")) : null;
    return new Resolved(header, tls(cluster, source.get("caBundle"), source.get("clientTLS")));
  }

  /** cabundle.go ResolveCABundle (one of inline, secretRef, configMapRef; key default ca.crt) and auth.go ResolveClientTLS. */
  private static SSLContext tls(Cluster cluster, JsonNode caBundle, JsonNode clientTls) {
    if (caBundle == null && clientTls == null) {
      return null;
    }
    Path dir = null;
    try {
      dir = Files.createTempDirectory("metahooks-emulator-tls");
      Path ca = null;
      if (caBundle != null) {
        String pem;
        if (caBundle.hasNonNull("inline")) {
          pem = caBundle.get("inline").asText();
        } else if (caBundle.has("secretRef")) {
          JsonNode ref = caBundle.get("secretRef");
          pem = secretValue(cluster, ref, ref.path("key").asText("ca.crt"), "caBundle");
        } else {
          JsonNode ref = caBundle.path("configMapRef");
          pem = configMapValue(cluster, ref, ref.path("key").asText("ca.crt"));
        }
        ca = Files.writeString(dir.resolve("ca.crt"), pem);
      }
      Path cert = null;
      Path key = null;
      if (clientTls != null) {
        JsonNode ref = clientTls.path("secretRef");
        cert =
            Files.writeString(
                dir.resolve("tls.crt"),
                secretValue(
                    cluster, ref, clientTls.path("certKey").asText("tls.crt"), "clientTLS"));
        key =
            Files.writeString(
                dir.resolve("tls.key"),
                secretValue(
                    cluster, ref, clientTls.path("privateKeyKey").asText("tls.key"), "clientTLS"));
      }
      return PemFiles.clientContext(ca, cert, key);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalArgumentException("can't resolve TLS: " + e.getMessage(), e);
    } finally {
      deleteQuietly(dir); // the key stores are loaded; the PEM copies are not needed any more
    }
  }

  private static void deleteQuietly(Path dir) {
    if (dir == null) {
      return;
    }
    try (var files = Files.list(dir)) {
      for (Path file : files.toList()) {
        Files.deleteIfExists(file);
      }
      Files.deleteIfExists(dir);
    } catch (java.io.IOException e) {
      // a temporary directory left behind is harmless
    }
  }

  private static String configMapValue(Cluster cluster, JsonNode ref, String key) {
    String namespace = ref.path("namespace").asText("");
    String name = ref.path("name").asText("");
    JsonNode value =
        cluster
            .find("v1", "ConfigMap", namespace, name)
            .map(c -> c.path("data").get(key))
            .orElse(null);
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException(
          "can't resolve caBundle: configmap "
              + namespace
              + "/"
              + name
              + " has no key \""
              + key
              + "\"");
    }
    return value.asText();
  }

  private static String authorization(Cluster cluster, JsonNode spec) {
    String type = spec.path("type").asText("").trim();
    if (type.equalsIgnoreCase("basic")) {
      throw new IllegalArgumentException(
          "can't resolve authorization: authorization type \""
              + type
              + "\" is not supported; use the basicAuth field instead");
    }
    JsonNode ref = spec.path("secretRef");
    String value = secretValue(cluster, ref, ref.path("key").asText(""), "authorization");
    return (type.isEmpty() ? "Bearer" : type) + " " + value.trim();
  }

  private static String basicAuth(Cluster cluster, JsonNode spec) {
    JsonNode ref = spec.path("secretRef");
    String user =
        secretValue(cluster, ref, spec.path("usernameKey").asText("username"), "basicAuth");
    String password =
        secretValue(cluster, ref, spec.path("passwordKey").asText("password"), "basicAuth");
    if (user.contains(":")) {
      throw new IllegalArgumentException(
          "can't resolve basicAuth: basicAuth username must not contain ':'");
    }
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user.trim() + ":" + password.trim()).getBytes(StandardCharsets.UTF_8));
  }

  private static String secretValue(Cluster cluster, JsonNode ref, String key, String what) {
    String namespace = ref.path("namespace").asText("");
    String name = ref.path("name").asText("");
    ObjectNode secret =
        cluster
            .find("v1", "Secret", namespace, name)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "can't resolve "
                            + what
                            + ": can't get "
                            + what
                            + " secret "
                            + namespace
                            + "/"
                            + name
                            + ": not found"));
    JsonNode data = secret.path("data").get(key);
    if (data != null && data.isTextual()) {
      return new String(Base64.getDecoder().decode(data.asText()), StandardCharsets.UTF_8);
    }
    JsonNode plain =
        secret.path("stringData").get(key); // what the API server would have turned into data
    if (plain != null && plain.isTextual()) {
      return plain.asText();
    }
    throw new IllegalArgumentException(
        "can't resolve "
            + what
            + ": "
            + what
            + " secret "
            + namespace
            + "/"
            + name
            + " does not contain key \""
            + key
            + "\"");
  }

  /** The webhook's effective URL (webhook.go webhookURL): {@code url}, or the service form with port 80. */
  private static URI url(JsonNode webhook) {
    if (webhook.hasNonNull("url")) {
      return URI.create(webhook.get("url").asText());
    }
    JsonNode service = webhook.path("service");
    return URI.create(
        service.path("protocol").asText("http")
            + "://"
            + service.path("name").asText()
            + "."
            + service.path("namespace").asText()
            + ":"
            + service.path("port").asInt(80)
            + webhook.path("path").asText(""));
  }

  /** endpoint_config.go matchEndpointConfig: host, or host:port, with 80/443 implied by the scheme. */
  private static JsonNode match(URI url, JsonNode endpointConfigs) {
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    String hostname = url.getHost() == null ? "" : url.getHost();
    String host = url.getPort() < 0 ? hostname : hostname + ":" + url.getPort();
    String canonical =
        url.getPort() >= 0
            ? host
            : scheme.equals("https")
                ? hostname + ":443"
                : scheme.equals("http") ? hostname + ":80" : host;
    boolean defaultPort =
        (scheme.equals("https") && url.getPort() == 443)
            || (scheme.equals("http") && url.getPort() == 80);
    for (JsonNode config : endpointConfigs) {
      String candidate = config.path("host").asText("");
      if (candidate.equalsIgnoreCase(host)
          || candidate.equalsIgnoreCase(canonical)
          || (defaultPort && candidate.equalsIgnoreCase(hostname))) {
        return config;
      }
    }
    return null;
  }
}
