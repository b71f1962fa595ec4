package io.weir.cluster.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * The fixed-layout frames that open every connection, before any message is decoded. A
 * challenge-response over the cluster's shared secret; the secret itself never crosses the wire:
 *
 * <pre>
 *   connecting side                         accepting side
 *   Hello(role, secret presence, nonce C) ->
 *                                         <- Challenge(nonce S)
 *   Proof(HMAC(secret, client, role, C, S)) ->
 *                                         <- Welcome(HMAC(secret, server, role, C, S))
 *                                            or Refused(reason), then close
 * </pre>
 *
 * The accepting side proves its knowledge only after the connecting side did, so a stranger learns
 * nothing it could test guessed secrets against. Every frame is a type byte and fixed or bounded
 * fields; none is larger than {@link #MAX_FRAME_BYTES}.
 */
final class Handshake {
  /** "WEIR": a peer that speaks something else is closed at its first frame. */
  static final int MAGIC = 0x57454952;

  static final byte VERSION = 1;
  static final int NONCE_BYTES = 32;
  static final int PROOF_BYTES = 32;
  static final int MAX_ROLE_BYTES = 32;
  static final int MAX_REASON_BYTES = 400;

  /** Larger than any handshake frame; an unauthenticated peer cannot make us buffer more. */
  static final int MAX_FRAME_BYTES = 512;

  private static final byte HELLO = 1;
  private static final byte CHALLENGE = 2;
  private static final byte PROOF = 3;
  private static final byte WELCOME = 4;
  private static final byte REFUSED = 5;

  private Handshake() {}

  /** Whether the connecting side has a secret (it never says which). */
  enum SecretPresence {
    NONE,
    PRESENTED;

    static SecretPresence of(String secret) {
      return secret == null || secret.isEmpty() ? NONE : PRESENTED;
    }
  }

  /** The first frame of the connecting side. */
  record Hello(String role, SecretPresence secretPresence, byte[] clientNonce) {
    ByteBuf encode(ByteBufAllocator allocator) {
      byte[] roleBytes = role.getBytes(StandardCharsets.US_ASCII);
      ByteBuf frame = allocator.buffer(16 + NONCE_BYTES + roleBytes.length);
      frame.writeByte(HELLO).writeInt(MAGIC).writeByte(VERSION);
      frame.writeByte(secretPresence.ordinal()).writeBytes(clientNonce);
      return frame.writeByte(roleBytes.length).writeBytes(roleBytes);
    }

    static Hello decode(ByteBuf frame) throws HandshakeException {
      expectType(frame, HELLO);
      if (frame.readInt() != MAGIC) {
        throw new HandshakeException("not a Weir cluster connection");
      }
      byte version = frame.readByte();
      if (version != VERSION) {
        throw new HandshakeException(
            "the peer speaks cluster protocol version " + version + ", this process " + VERSION);
      }
      int presence = frame.readUnsignedByte();
      if (presence >= SecretPresence.values().length) {
        throw new HandshakeException("malformed hello");
      }
      byte[] nonce = readFixed(frame, NONCE_BYTES);
      int roleLength = frame.readUnsignedByte();
      if (roleLength > MAX_ROLE_BYTES) {
        throw new HandshakeException("malformed hello");
      }
      String role = new String(readFixed(frame, roleLength), StandardCharsets.US_ASCII);
      expectEnd(frame);
      return new Hello(role, SecretPresence.values()[presence], nonce);
    }
  }

  /** The accepting side's nonce. */
  record Challenge(byte[] serverNonce) {
    ByteBuf encode(ByteBufAllocator allocator) {
      return allocator.buffer(1 + NONCE_BYTES).writeByte(CHALLENGE).writeBytes(serverNonce);
    }

    static Challenge decode(ByteBuf frame) throws HandshakeException {
      expectType(frame, CHALLENGE);
      Challenge challenge = new Challenge(readFixed(frame, NONCE_BYTES));
      expectEnd(frame);
      return challenge;
    }
  }

  /** The connecting side's proof that it knows the secret. */
  record Proof(byte[] clientProof) {
    ByteBuf encode(ByteBufAllocator allocator) {
      return allocator.buffer(1 + PROOF_BYTES).writeByte(PROOF).writeBytes(clientProof);
    }

    static Proof decode(ByteBuf frame) throws HandshakeException {
      expectType(frame, PROOF);
      Proof proof = new Proof(readFixed(frame, PROOF_BYTES));
      expectEnd(frame);
      return proof;
    }
  }

  /** The accepting side's answer to a proof or a hello: welcome (with its own proof) or refusal. */
  sealed interface Verdict permits Welcome, Refused {
    ByteBuf encode(ByteBufAllocator allocator);

    static Verdict decode(ByteBuf frame) throws HandshakeException {
      if (!frame.isReadable()) {
        throw new HandshakeException("empty frame");
      }
      Verdict verdict =
          switch (frame.readByte()) {
            case WELCOME -> new Welcome(readFixed(frame, PROOF_BYTES));
            case REFUSED -> new Refused(readReason(frame));
            default -> throw new HandshakeException("expected a welcome or a refusal");
          };
      expectEnd(frame);
      return verdict;
    }
  }

  record Welcome(byte[] serverProof) implements Verdict {
    @Override
    public ByteBuf encode(ByteBufAllocator allocator) {
      return allocator.buffer(1 + PROOF_BYTES).writeByte(WELCOME).writeBytes(serverProof);
    }
  }

  /** Why the connection was refused, as a line for the user. */
  record Refused(String reason) implements Verdict {
    @Override
    public ByteBuf encode(ByteBufAllocator allocator) {
      byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
      int length = Math.min(bytes.length, MAX_REASON_BYTES);
      return allocator
          .buffer(3 + length)
          .writeByte(REFUSED)
          .writeShort(length)
          .writeBytes(bytes, 0, length);
    }
  }

  /** Whether the frame is a refusal, without consuming it. */
  static boolean isRefusal(ByteBuf frame) {
    return frame.isReadable() && frame.getByte(frame.readerIndex()) == REFUSED;
  }

  private static String readReason(ByteBuf frame) throws HandshakeException {
    int length = frame.readUnsignedShort();
    if (length > MAX_REASON_BYTES) {
      throw new HandshakeException("malformed refusal");
    }
    return new String(readFixed(frame, length), StandardCharsets.UTF_8);
  }

  private static void expectType(ByteBuf frame, byte type) throws HandshakeException {
    if (!frame.isReadable() || frame.readByte() != type) {
      throw new HandshakeException("unexpected handshake frame");
    }
  }

  private static byte[] readFixed(ByteBuf frame, int length) throws HandshakeException {
    if (frame.readableBytes() < length) {
      throw new HandshakeException("truncated handshake frame");
    }
    byte[] bytes = new byte[length];
    frame.readBytes(bytes);
    return bytes;
  }

  private static void expectEnd(ByteBuf frame) throws HandshakeException {
    if (frame.isReadable()) {
      throw new HandshakeException("oversized handshake frame");
    }
  }

  /** A peer broke the handshake's layout or order; the connection is closed. */
  static final class HandshakeException extends Exception {
    private static final long serialVersionUID = 1L;

    HandshakeException(String message) {
      super(message, null, false, false);
    }
  }
}
