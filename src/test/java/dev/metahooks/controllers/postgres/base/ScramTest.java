package dev.metahooks.controllers.postgres.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The verifier's format and password preparation; UsersJobPostgresIT logs in with them on a real server. */
class ScramTest {
  @Test
  void theStoredFormatOfPostgres() {
    byte[] salt = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    String verifier = Scram.verifier("pencil", salt);
    assertThat(verifier)
        .matches("SCRAM-SHA-256\\$4096:[A-Za-z0-9+/=]{24}\\$[A-Za-z0-9+/=]{44}:[A-Za-z0-9+/=]{44}");
    assertThat(verifier.split("[$:]")[2]).isEqualTo(Base64.getEncoder().encodeToString(salt));
    assertThat(Scram.verifier("pencil", salt))
        .as("a function of password and salt")
        .isEqualTo(verifier);
    assertThat(Scram.verifier("pencil", "fedcba9876543210".getBytes(StandardCharsets.US_ASCII)))
        .isNotEqualTo(verifier);
  }

  @Test
  void saslPrepAsPostgresDoesIt() {
    assertThat(Scram.prepare("plain ascii \t with tab")).isEqualTo("plain ascii \t with tab");
    assertThat(Scram.prepare("ﬁ\u00A0x\u00AD"))
        .as("NFKC, spaces mapped, soft hyphen removed")
        .isEqualTo("fi x");
    assertThat(Scram.prepare("pässwörd")).isEqualTo("pässwörd");
    // A prohibited character: the password is used as it is, as PostgreSQL does when SASLprep
    // fails.
    assertThat(Scram.prepare("bad\u0007bell ü")).isEqualTo("bad\u0007bell ü");
    assertThat(Scram.prepare("\u05D0a\u05D1"))
        .as("right-to-left mixed with left-to-right")
        .isEqualTo("\u05D0a\u05D1");
  }
}
