package dev.metahooks.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Certificates made with openssl under {@code target/tls/}: a CA, and server certificates it signs for given DNS
 * names and IP addresses, as cert-manager would put them into a {@code kubernetes.io/tls} Secret.
 */
public final class TestCertificates {
  private final Path dir;

  private TestCertificates(Path dir) {
    this.dir = dir;
  }

  /** A new directory of certificates; needs openssl (installed by .ci/run). */
  public static TestCertificates create() {
    try {
      Path base = Resources.projectDir().resolve("target").resolve("tls");
      Files.createDirectories(base);
      return new TestCertificates(Files.createTempDirectory(base, "certs-"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Path dir() {
    return dir;
  }

  /** A self-signed CA; files {@code <name>.crt} and {@code <name>.key}. */
  public Path ca(String name) {
    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=" + name,
        "-addext",
        "basicConstraints=critical,CA:true",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
        "-keyout",
        file(name + ".key"),
        "-out",
        file(name + ".crt"));
    return dir.resolve(name + ".crt");
  }

  /**
   * A server certificate signed by the CA {@code ca} (made by {@link #ca}); files {@code <name>.crt} and
   * {@code <name>.key}. {@code names} are DNS names, or IP addresses when they start with a digit.
   */
  public Path server(String name, String ca, List<String> names, int days) {
    List<String> san = new ArrayList<>();
    for (String subject : names) {
      san.add((Character.isDigit(subject.charAt(0)) ? "IP:" : "DNS:") + subject);
    }
    try {
      Path extensions = dir.resolve(name + ".ext");
      Files.writeString(
          extensions,
          "subjectAltName=" + String.join(",", san) + "\nextendedKeyUsage=serverAuth\n",
          StandardCharsets.US_ASCII);
      openssl(
          "req",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-subj",
          "/CN=" + names.get(0),
          "-keyout",
          file(name + ".key"),
          "-out",
          file(name + ".csr"));
      openssl(
          "x509",
          "-req",
          "-in",
          file(name + ".csr"),
          "-CA",
          file(ca + ".crt"),
          "-CAkey",
          file(ca + ".key"),
          "-CAcreateserial",
          "-days",
          String.valueOf(days),
          "-extfile",
          extensions.toString(),
          "-out",
          file(name + ".crt"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return dir.resolve(name + ".crt");
  }

  /** A file's text. */
  public String pem(String file) {
    try {
      return Files.readString(dir.resolve(file), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String file(String name) {
    return dir.resolve(name).toString();
  }

  private static void openssl(String... arguments) {
    List<String> command = new ArrayList<>(List.of("openssl"));
    command.addAll(List.of(arguments));
    PostgresServer.run(command, Map.of(), Duration.ofMinutes(1));
  }
}
