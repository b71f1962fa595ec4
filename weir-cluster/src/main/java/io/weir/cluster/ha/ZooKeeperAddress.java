package io.weir.cluster.ha;

/**
 * Where the cluster's high-availability data lives: a ZooKeeper ensemble and the root node under
 * which this cluster keeps its leader, jobs and checkpoint pointers, from a URL such as {@code
 * zookeeper://127.0.0.1:2181} or {@code zookeeper://zk1:2181,zk2:2181,zk3:2181/clusters/one}.
 *
 * @param connectString the ensemble, as ZooKeeper clients take it
 * @param root the cluster's root node; {@code /weir} when the URL names none
 */
public record ZooKeeperAddress(String connectString, String root) {
  private static final String SCHEME = "zookeeper://";

  /**
   * @throws IllegalArgumentException with one line naming the option and the value
   */
  public static ZooKeeperAddress parse(String option, String url) {
    if (url == null || !url.startsWith(SCHEME) || url.length() == SCHEME.length()) {
      throw new IllegalArgumentException(
          option
              + " must look like zookeeper://HOST:PORT[,HOST:PORT...][/ROOT], not '"
              + url
              + "'");
    }
    String rest = url.substring(SCHEME.length());
    int slash = rest.indexOf('/');
    String hosts = slash < 0 ? rest : rest.substring(0, slash);
    String root = slash < 0 || slash == rest.length() - 1 ? "/weir" : rest.substring(slash);
    for (String host : hosts.split(",")) {
      int colon = host.lastIndexOf(':');
      if (colon <= 0 || !host.substring(colon + 1).matches("[0-9]{1,5}")) {
        throw new IllegalArgumentException(
            option + ": '" + host + "' in " + url + " is not HOST:PORT");
      }
    }
    return new ZooKeeperAddress(
        hosts, root.endsWith("/") ? root.substring(0, root.length() - 1) : root);
  }

  @Override
  public String toString() {
    return SCHEME + connectString + root;
  }
}
