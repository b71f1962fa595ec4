package io.weir.runtime.state;

import io.weir.api.types.TypeChangedException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The states of one heap backend whose descriptors declared {@link
 * io.weir.api.types.TypeSerializer}s. A snapshot writes their values as the type's bytes with the
 * type's schema; a restore keeps those bytes until the operator declares the state again, then
 * reads them through the schema they were written with, so a type that gained or lost fields
 * restores and one whose field changed type fails the restore, naming state, operator and field.
 * Used on the task thread only; a snapshot takes what it writes from {@link #freeze}.
 */
final class TypedStates {
  private final String operatorUid;
  private final Map<String, TypedStateCodec> codecs = new HashMap<>();
  private final Map<String, Map<Integer, TypedKeyGroup>> restored = new LinkedHashMap<>();

  TypedStates(String operatorUid) {
    this.operatorUid = operatorUid;
  }

  void restore(String name, int index, TypedKeyGroup group) {
    restored.computeIfAbsent(name, n -> new HashMap<>()).put(index, group);
  }

  /**
   * Declares state {@code name} with {@code codec} (null when its serializers are not typed) and
   * puts its restored values into {@code table}.
   */
  void declare(String name, TypedStateCodec codec, HeapStateTable table) {
    Map<Integer, TypedKeyGroup> groups = restored.remove(name);
    if (codec == null) {
      if (groups != null) {
        throw StateRestoreRefusal.declaredWithoutTypeSerializer(name, operatorUid);
      }
      return;
    }
    codecs.putIfAbsent(name, codec);
    if (groups != null) {
      groups.forEach((index, group) -> decodeInto(name, codec, group, table.group(index)));
    }
  }

  /** The codec of declared typed state {@code name}, or null when it is not one. */
  TypedStateCodec codec(String name) {
    return codecs.get(name);
  }

  /**
   * The typed states as a snapshot writes them now: the codecs declared so far and the restored
   * groups not declared yet. Its own maps, so that the snapshot thread may read them while the task
   * thread declares states.
   */
  Frozen freeze() {
    return new Frozen(Map.copyOf(codecs), new LinkedHashMap<>(restored));
  }

  /** See {@link #freeze}; its maps are never changed. */
  record Frozen(
      Map<String, TypedStateCodec> codecs, Map<String, Map<Integer, TypedKeyGroup>> undeclared) {
    boolean isTyped(String name) {
      return codecs.containsKey(name);
    }

    /** Writes a declared typed state's entries of one key group as its serializers' bytes. */
    void snapshot(String name, Map<Object, Object> group, KeyGroupWriter writer) {
      TypedStateCodec codec = codecs.get(name);
      writer.typedState(name, codec.schemas(), group, codec::encode);
    }

    /** Restored groups of states the operator has not declared yet: kept as they were written. */
    void snapshotUndeclared(int index, KeyGroupWriter writer) {
      undeclared.forEach(
          (name, groups) -> {
            TypedKeyGroup group = groups.get(index);
            if (group != null) {
              writer.typedState(name, group.schemas(), group.values(), bytes -> bytes);
            }
          });
    }
  }

  private void decodeInto(
      String name, TypedStateCodec codec, TypedKeyGroup group, HashMap<Object, Object> into) {
    TypedStateCodec.Decoder decoder;
    try {
      decoder = codec.decoderOf(group.schemas());
    } catch (TypeChangedException e) {
      throw StateRestoreRefusal.typeChanged(name, operatorUid, e);
    }
    group.values().forEach((key, bytes) -> into.put(key, decoder.decode(bytes)));
  }
}
