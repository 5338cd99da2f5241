package dev.metahooks.server.internal;

import dev.metahooks.server.config.ConfigurationException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Key stores from PEM files, the format of Kubernetes TLS Secrets ({@code tls.crt}, {@code tls.key},
 * {@code ca.crt}). Private keys in PKCS#8 ({@code BEGIN PRIVATE KEY}: RSA, EC, Ed25519) and PKCS#1
 * ({@code BEGIN RSA PRIVATE KEY}, cert-manager's default) are read; other forms are refused with a message
 * that says how to convert them. {@link dev.metahooks.server.PemFiles} is the public view of it.
 */
public final class PemKeyStores {
  public static final char[] PASSWORD = "metahooks".toCharArray(); // in-memory key store only
  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");

  private PemKeyStores() {}

  /** A key store with the key and its certificate chain; a key that does not belong to the certificate is refused. */
  public static KeyStore keyStore(Path certFile, Path keyFile) {
    try {
      List<Certificate> chain = certificates(certFile);
      if (chain.isEmpty()) {
        throw new ConfigurationException(certFile + " holds no certificate");
      }
      PrivateKey key = privateKey(keyFile);
      if (!belongTogether(key, chain.get(0).getPublicKey())) {
        throw new ConfigurationException(
            "the key " + keyFile + " does not belong to the certificate " + certFile);
      }
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("server", key, PASSWORD, chain.toArray(Certificate[]::new));
      return store;
    } catch (ConfigurationException e) {
      throw e;
    } catch (GeneralSecurityException | IOException | IllegalArgumentException e) {
      throw new ConfigurationException(
          "cannot load the TLS certificate "
              + certFile
              + " and key "
              + keyFile
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** Whether the private key signs what the certificate's public key verifies. */
  private static boolean belongTogether(PrivateKey key, PublicKey certified)
      throws GeneralSecurityException {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          default -> key.getAlgorithm(); // Ed25519, EdDSA
        };
    if (!key.getAlgorithm().equals(certified.getAlgorithm())
        && !(key.getAlgorithm().startsWith("Ed") && certified.getAlgorithm().startsWith("Ed"))) {
      return false;
    }
    byte[] probe = "metahooks key check".getBytes(StandardCharsets.US_ASCII);
    Signature signer = Signature.getInstance(algorithm);
    signer.initSign(key);
    signer.update(probe);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance(algorithm);
    verifier.initVerify(certified);
    verifier.update(probe);
    return verifier.verify(signature);
  }

  /** A key store trusting every certificate of {@code caFile}. */
  public static KeyStore trustStore(Path caFile) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      int i = 0;
      for (Certificate certificate : certificates(caFile)) {
        store.setCertificateEntry("ca-" + i++, certificate);
      }
      if (i == 0) {
        throw new ConfigurationException(caFile + " holds no certificate");
      }
      return store;
    } catch (ConfigurationException e) {
      throw e;
    } catch (GeneralSecurityException | IOException | IllegalArgumentException e) {
      throw new ConfigurationException(
          "cannot load the client CA " + caFile + ": " + e.getMessage(), e);
    }
  }

  private static List<Certificate> certificates(Path file)
      throws IOException, GeneralSecurityException {
    byte[] pem = Files.readAllBytes(file);
    return List.copyOf(
        CertificateFactory.getInstance("X.509")
            .generateCertificates(new ByteArrayInputStream(pem)));
  }

  private static PrivateKey privateKey(Path file) throws IOException, GeneralSecurityException {
    Matcher block = BLOCK.matcher(Files.readString(file, StandardCharsets.US_ASCII));
    if (!block.find()) {
      throw new IllegalArgumentException(file + " holds no PEM block");
    }
    byte[] der = Base64.getMimeDecoder().decode(block.group(2));
    byte[] pkcs8 =
        switch (block.group(1)) {
          case "PRIVATE KEY" -> der;
          case "RSA PRIVATE KEY" -> rsaPkcs1ToPkcs8(der);
          default ->
              throw new IllegalArgumentException(
                  file
                      + " holds a '"
                      + block.group(1)
                      + "'; convert it with: openssl pkcs8 -topk8 -nocrypt -in key.pem -out key.pk8.pem");
        };
    GeneralSecurityException last = null;
    for (String algorithm : new String[] {"RSA", "EC", "Ed25519"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
      } catch (GeneralSecurityException e) {
        last = e;
      }
    }
    throw last;
  }

  /** Wraps a PKCS#1 RSAPrivateKey in a PKCS#8 PrivateKeyInfo: version 0, algorithm rsaEncryption, the key. */
  private static byte[] rsaPkcs1ToPkcs8(byte[] pkcs1) {
    byte[] algorithm = {
      0x30,
      0x0d,
      0x06,
      0x09,
      0x2a,
      (byte) 0x86,
      0x48,
      (byte) 0x86,
      (byte) 0xf7,
      0x0d,
      0x01,
      0x01,
      0x01,
      0x05,
      0x00
    };
    byte[] version = {0x02, 0x01, 0x00};
    byte[] key = der((byte) 0x04, pkcs1);
    byte[] body = new byte[version.length + algorithm.length + key.length];
    System.arraycopy(version, 0, body, 0, version.length);
    System.arraycopy(algorithm, 0, body, version.length, algorithm.length);
    System.arraycopy(key, 0, body, version.length + algorithm.length, key.length);
    return der((byte) 0x30, body);
  }

  private static byte[] der(byte tag, byte[] content) {
    int length = content.length;
    byte[] lengthBytes;
    if (length < 0x80) {
      lengthBytes = new byte[] {(byte) length};
    } else if (length < 0x100) {
      lengthBytes = new byte[] {(byte) 0x81, (byte) length};
    } else if (length < 0x10000) {
      lengthBytes = new byte[] {(byte) 0x82, (byte) (length >> 8), (byte) length};
    } else {
      lengthBytes =
          new byte[] {(byte) 0x83, (byte) (length >> 16), (byte) (length >> 8), (byte) length};
    }
    byte[] out = new byte[1 + lengthBytes.length + length];
    out[0] = tag;
    System.arraycopy(lengthBytes, 0, out, 1, lengthBytes.length);
    System.arraycopy(content, 0, out, 1 + lengthBytes.length, length);
    return out;
  }
}
