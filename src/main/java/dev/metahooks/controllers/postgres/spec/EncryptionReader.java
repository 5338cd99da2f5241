package dev.metahooks.controllers.postgres.spec;

import static dev.metahooks.controllers.postgres.spec.SpecFields.oneOf;
import static dev.metahooks.controllers.postgres.spec.SpecFields.required;
import static dev.metahooks.controllers.postgres.spec.SpecFields.string;

import dev.metahooks.kube.FieldReader;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads {@code encryption} of {@code spec.backup} (WAL-G's key and the store's server-side encryption) and of
 * {@code spec.bootstrap.clone} (the source archive's key; the store decrypts server-side encryption by itself).
 */
final class EncryptionReader {
  static final List<String> TRANSFORMS = List.of("none", "base64", "hex");
  static final List<String> SERVER_SIDE = List.of("AES256", "aws:kms");
  static final Pattern KMS_KEY = Pattern.compile("[A-Za-z0-9:/_.+=,@-]+");

  private EncryptionReader() {}

  static BackupSpec.Encryption read(FieldReader parent, boolean serverSideAllowed) {
    if (!parent.isSet("encryption")) {
      return BackupSpec.Encryption.NONE;
    }
    FieldReader encryption = parent.objectOrEmpty("encryption");
    Optional<FieldReader> libsodiumField = encryption.optionalObject("libsodium");
    Optional<BackupSpec.SecretKey> libsodium =
        libsodiumField.map(given -> key(given, "WALG_LIBSODIUM_KEY"));
    String transform =
        libsodiumField.map(given -> oneOf(given, "transform", "none", TRANSFORMS)).orElse("none");
    Optional<FieldReader> pgpField = encryption.optionalObject("pgp");
    Optional<BackupSpec.SecretKey> pgp = pgpField.map(given -> key(given, "WALG_PGP_KEY"));
    Optional<BackupSpec.SecretKey> passphrase =
        pgpField
            .filter(given -> given.isSet("passphraseKey"))
            .map(
                given ->
                    new BackupSpec.SecretKey(
                        pgp.orElseThrow().secretName(),
                        string(given, "passphraseKey", "", BackupSpecReader.SECRET_KEY, 253)));
    if (libsodium.isPresent() && pgp.isPresent()) {
      encryption.report("pgp", "libsodium and pgp exclude each other: WAL-G encrypts with one key");
    }
    String serverSide = "";
    String kmsKeyId = "";
    if (encryption.isSet("serverSide")) {
      FieldReader store = encryption.objectOrEmpty("serverSide");
      if (!serverSideAllowed) {
        encryption.report(
            "serverSide",
            "is the store's own: reading needs no setting (only libsodium or pgp here)");
      }
      serverSide = oneOf(store, "method", "AES256", SERVER_SIDE);
      kmsKeyId = string(store, "kmsKeyId", "", KMS_KEY, 2048);
      if (!kmsKeyId.isEmpty() && !serverSide.equals("aws:kms")) {
        store.report("kmsKeyId", "needs method: aws:kms");
      }
    }
    return new BackupSpec.Encryption(libsodium, transform, pgp, passphrase, serverSide, kmsKeyId);
  }

  private static BackupSpec.SecretKey key(FieldReader given, String defaultKey) {
    return new BackupSpec.SecretKey(
        required(given, "secretName", SpecReader.SECRET_NAME, 253).orElse(""),
        string(given, "key", defaultKey, BackupSpecReader.SECRET_KEY, 253));
  }
}
