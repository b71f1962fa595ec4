package io.weir.cluster.rpc;

import io.netty.channel.Channel;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Collections;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * Whether the cluster's connections run over TLS, and with which key pair. Every process of a
 * cluster holds the same PKCS#12 key store (made by {@code weir cluster cert}): it presents its
 * certificate and trusts exactly the certificates of that store, on both sides of a connection
 * (mutual TLS), so a peer without the key store cannot even start the cluster's own handshake.
 * Immutable; shared by all connections of a process.
 */
public final class ClusterTls {
  /** How a process came to its connections' protection. */
  private enum Transport {
    /** No key store configured: plaintext, which only loopback addresses accept. */
    PLAINTEXT_BY_DEFAULT,
    /** Plaintext chosen by the operator ({@code cluster.tls: off}), off loopback too. */
    PLAINTEXT_BY_CHOICE,
    TLS
  }

  private static final ClusterTls PLAINTEXT =
      new ClusterTls(Transport.PLAINTEXT_BY_DEFAULT, null, null, null);
  private static final ClusterTls PLAINTEXT_CHOSEN =
      new ClusterTls(Transport.PLAINTEXT_BY_CHOICE, null, null, null);

  private final Transport transport;
  private final SslContext serverContext;
  private final SslContext clientContext;
  private final Path keyStore;

  private ClusterTls(
      Transport transport, SslContext serverContext, SslContext clientContext, Path keyStore) {
    this.transport = transport;
    this.serverContext = serverContext;
    this.clientContext = clientContext;
    this.keyStore = keyStore;
  }

  /** Connections without TLS: readable by whoever sees the network. Loopback addresses only. */
  public static ClusterTls plaintext() {
    return PLAINTEXT;
  }

  /**
   * Plaintext on any address, because the operator said so: for networks protected otherwise (a
   * private link, a VPN).
   */
  public static ClusterTls plaintextByChoice() {
    return PLAINTEXT_CHOSEN;
  }

  /**
   * TLS with the key pair in {@code keyStore}.
   *
   * @throws IllegalArgumentException naming the file when it cannot be read, the password is wrong
   *     or it holds no key pair
   */
  public static ClusterTls fromKeyStore(Path keyStore, String password) {
    char[] secret = password == null ? new char[0] : password.toCharArray();
    try {
      KeyStore store = load(keyStore, secret);
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, secret);
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(certificatesOf(keyStore, store));
      SslContext server =
          SslContextBuilder.forServer(keys)
              .trustManager(trust)
              .clientAuth(ClientAuth.REQUIRE)
              .build();
      SslContext client =
          SslContextBuilder.forClient().keyManager(keys).trustManager(trust).build();
      return new ClusterTls(Transport.TLS, server, client, keyStore);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "Cannot use the TLS key store " + keyStore + ": " + rootMessage(e), e);
    }
  }

  public boolean isEnabled() {
    return transport == Transport.TLS;
  }

  /** Whether a listener off the loopback interface may use these connections. */
  public boolean acceptableOffLoopback() {
    return transport != Transport.PLAINTEXT_BY_DEFAULT;
  }

  /** Puts TLS first on an accepted connection, if enabled. */
  void secureAccepted(Channel channel) {
    if (isEnabled()) {
      channel.pipeline().addFirst("tls", serverContext.newHandler(channel.alloc()));
    }
  }

  /** Puts TLS first on a connection to {@code peer}, if enabled. */
  void secureConnecting(Channel channel, HostAndPort peer) {
    if (isEnabled()) {
      channel
          .pipeline()
          .addFirst("tls", clientContext.newHandler(channel.alloc(), peer.host(), peer.port()));
    }
  }

  private static KeyStore load(Path file, char[] password)
      throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, password);
    }
    return store;
  }

  /** The store's certificates as trusted entries: the cluster trusts its own pair only. */
  private static KeyStore certificatesOf(Path file, KeyStore store)
      throws IOException, GeneralSecurityException {
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    trusted.load(null, null);
    for (String alias : Collections.list(store.aliases())) {
      Certificate certificate = store.getCertificate(alias);
      if (certificate != null) {
        trusted.setCertificateEntry(alias, certificate);
      }
    }
    if (trusted.size() == 0) {
      throw new GeneralSecurityException("it holds no certificate");
    }
    return trusted;
  }

  private static String rootMessage(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }

  @Override
  public String toString() {
    return isEnabled() ? "TLS with " + keyStore : "plaintext";
  }
}
