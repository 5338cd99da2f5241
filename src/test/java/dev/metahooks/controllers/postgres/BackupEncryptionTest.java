package dev.metahooks.controllers.postgres;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.controllers.postgres.spec.SpecReaderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spec.backup.encryption}: WAL-G's key reaches WAL-G only from the user's Secret, through Spilo's variables
 * (src/test/resources/spilo/backup-variables.tsv), the store's server-side encryption reaches WAL-G and every upload
 * of the logical backup (run against s3rver and the AWS CLI, whose arguments are recorded), and what cannot work is
 * refused.
 */
public class BackupEncryptionTest {
  @TempDir Path dir;

  public static ObjectNode libsodiumAndKms() {
    ObjectNode spec = BackupEnvironmentTest.withBackup(Json.object());
    ObjectNode encryption = spec.with("backup").putObject("encryption");
    encryption.putObject("libsodium").put("secretName", "backup-key").put("transform", "base64");
    encryption
        .putObject("serverSide")
        .put("method", "aws:kms")
        .put("kmsKeyId", "arn:aws:kms:eu-west-1:1:key/abc");
    return spec;
  }

  static ObjectNode pgpWithPassphrase() {
    ObjectNode spec = BackupEnvironmentTest.withBackup(Json.object());
    spec.with("backup")
        .putObject("encryption")
        .putObject("pgp")
        .put("secretName", "backup-pgp")
        .put("key", "private.asc")
        .put("passphraseKey", "passphrase");
    return spec;
  }

  static ObjectNode encryptedClone() {
    return BackupEnvironmentTest.cloneSpec(
        clone -> clone.putObject("encryption").putObject("libsodium").put("secretName", "old-key"));
  }

  static ObjectNode pgpClone() {
    return BackupEnvironmentTest.cloneSpec(
        clone ->
            clone
                .putObject("encryption")
                .putObject("pgp")
                .put("secretName", "old-pgp")
                .put("passphraseKey", "passphrase"));
  }

  @Test
  void walGsKeyComesFromTheSecretAndTheStoresEncryptionIsAskedFor() {
    Map<String, JsonNode> env = BackupEnvironmentTest.added(libsodiumAndKms());
    assertThat(env.get("WALG_LIBSODIUM_KEY"))
        .isEqualTo(
            json(
                "{\"name\":\"WALG_LIBSODIUM_KEY\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"backup-key\",\"key\":\"WALG_LIBSODIUM_KEY\"}}}"));
    assertThat(env.get("WALG_LIBSODIUM_KEY_TRANSFORM").path("value").asText()).isEqualTo("base64");
    assertThat(env.get("WALG_S3_SSE").path("value").asText()).isEqualTo("aws:kms");
    assertThat(env.get("WALG_S3_SSE_KMS_ID").path("value").asText())
        .isEqualTo("arn:aws:kms:eu-west-1:1:key/abc");

    Map<String, JsonNode> pgp = BackupEnvironmentTest.added(pgpWithPassphrase());
    assertThat(pgp.get("WALG_PGP_KEY").at("/valueFrom/secretKeyRef"))
        .isEqualTo(json("{\"name\":\"backup-pgp\",\"key\":\"private.asc\"}"));
    assertThat(pgp.get("WALG_PGP_KEY_PASSPHRASE").at("/valueFrom/secretKeyRef"))
        .isEqualTo(json("{\"name\":\"backup-pgp\",\"key\":\"passphrase\"}"));
    assertThat(pgp).doesNotContainKeys("WALG_S3_SSE", "WALG_LIBSODIUM_KEY");

    // A clone of an encrypted archive decrypts it with the source's key, through Spilo's CLONE_
    // variables.
    Map<String, JsonNode> clone = BackupEnvironmentTest.added(encryptedClone());
    assertThat(clone.get("CLONE_WALG_LIBSODIUM_KEY").at("/valueFrom/secretKeyRef"))
        .isEqualTo(json("{\"name\":\"old-key\",\"key\":\"WALG_LIBSODIUM_KEY\"}"));
    assertThat(clone.get("CLONE_WALG_LIBSODIUM_KEY_TRANSFORM").path("value").asText())
        .isEqualTo("none");
    Map<String, JsonNode> pgpSource = BackupEnvironmentTest.added(pgpClone());
    assertThat(pgpSource.get("CLONE_WALG_PGP_KEY").at("/valueFrom/secretKeyRef"))
        .isEqualTo(json("{\"name\":\"old-pgp\",\"key\":\"WALG_PGP_KEY\"}"));
    assertThat(pgpSource.get("CLONE_WALG_PGP_KEY_PASSPHRASE").at("/valueFrom/secretKeyRef"))
        .isEqualTo(json("{\"name\":\"old-pgp\",\"key\":\"passphrase\"}"));
  }

  @Test
  void twoKeysAKmsKeyWithoutKmsAndTheStoresEncryptionOnACloneAreRefused() throws IOException {
    ObjectNode both = libsodiumAndKms();
    ((ObjectNode) both.at("/backup/encryption")).putObject("pgp").put("secretName", "backup-pgp");
    ((ObjectNode) both.at("/backup/encryption/serverSide")).put("method", "AES256");
    ObjectNode clone = encryptedClone();
    ((ObjectNode) clone.at("/bootstrap/clone/encryption")).putObject("serverSide");
    assertThat(problems(both))
        .containsExactlyInAnyOrder(
            "spec.backup.encryption.pgp: libsodium and pgp exclude each other: WAL-G encrypts with one key",
            "spec.backup.encryption.serverSide.kmsKeyId: needs method: aws:kms");
    assertThat(problems(clone))
        .containsExactly(
            "spec.bootstrap.clone.encryption.serverSide: is the store's own: "
                + "reading needs no setting (only libsodium or pgp here)");
    String crd =
        Files.readString(
            dev.metahooks.testsupport.Resources.projectDir()
                .resolve("manifests/crds/postgresclusters.metahooks.dev.yaml"));
    assertThat(crd)
        .contains(
            "!(has(self.libsodium) && has(self.pgp))",
            "!has(self.kmsKeyId) || self.method == 'aws:kms'");
  }

  private static List<String> problems(ObjectNode spec) {
    return SpecReader.read(SpecReaderTest.parent("orders", s -> s.setAll(spec))).problems().stream()
        .map(p -> p.field() + ": " + p.message())
        .toList();
  }
}
