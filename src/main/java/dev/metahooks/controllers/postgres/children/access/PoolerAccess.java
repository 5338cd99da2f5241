package dev.metahooks.controllers.postgres.children.access;

/**
 * How PgBouncer is reached, for everything that is not the pooler's own Deployment: clients (the users' Secrets
 * and the status' endpoint) connect to its port; the pooler role's Secret holds its auth file.
 */
public final class PoolerAccess {
  public static final int PORT = 5432;

  /** The auth file's key in the pooler role's Secret, and its name in the pooler's pods. */
  public static final String AUTH_FILE = "userlist.txt";

  private PoolerAccess() {}

  /** The auth file: the pooler's own role only, in PgBouncer's quoting (a {@code "} doubled). */
  public static String authFile(String password) {
    return "\"" + ServiceRoles.POOLER + "\" \"" + password.replace("\"", "\"\"") + "\"\n";
  }
}
