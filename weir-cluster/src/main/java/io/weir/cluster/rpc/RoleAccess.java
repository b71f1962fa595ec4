package io.weir.cluster.rpc;

/**
 * What a server admits for one role: the secret a peer of that role must prove it knows, where an
 * operator sets that secret (named in the refusal of a peer that presents none), and the handler
 * its messages go to once admitted.
 *
 * <p>Roles have secrets of their own so that holding one role's secret does not admit the holder as
 * another role: a command-line user who knows the cluster's secret cannot register a task manager,
 * which would receive the jobs' records and code.
 *
 * @param secret the role's secret, or empty when the server admits the role without one
 * @param setting where the secret is configured, e.g. {@code cluster.secret in conf/weir.yaml}
 * @param handler receives the admitted connection's messages
 */
public record RoleAccess(String secret, String setting, MessageHandler handler) {
  public RoleAccess {
    secret = secret == null ? "" : secret;
  }
}
