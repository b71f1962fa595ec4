package io.weir.runtime.state;

import io.weir.api.state.StateSerializer;
import io.weir.api.types.EvolvingSerializer;
import io.weir.api.types.TypeChangedException;
import io.weir.api.types.TypeSerializer;
import java.util.List;
import java.util.Map;

/**
 * The schemas of the operator states declared with an {@link EvolvingSerializer} (such as a {@link
 * TypeSerializer}). A snapshot keeps each such state's schema once, as a union list state of its
 * own (so that every subtask sees it after a rescale, whichever elements it is given); a restore
 * reads the state's elements through the schema they were written with. Used on the task thread
 * only.
 */
final class OperatorStateSchemas {
  private static final String PREFIX = "weir:type-schema:";

  /** Which of the operator's state maps a state is in; states of both may share a name. */
  enum Kind {
    LIST,
    UNION
  }

  private final String operatorUid;
  private final Map<String, List<byte[]>> restoredSchemas;

  OperatorStateSchemas(String operatorUid, Map<String, List<byte[]>> restoredUnionStates) {
    this.operatorUid = operatorUid;
    this.restoredSchemas = restoredUnionStates;
  }

  /**
   * The serializer that reads the restored elements of state {@code name} whose elements are
   * written with {@code declared}: {@code declared} itself when it is not an {@link
   * EvolvingSerializer} or nothing typed was written, else a reader through the written schema.
   *
   * @throws io.weir.api.datastream.SuppressRestartsException in one line naming state, operator and
   *     field when a field changed its type, or naming state and operator when the state was
   *     written with a TypeSerializer and is declared without one, or the other way round
   */
  @SuppressWarnings("unchecked")
  StateSerializer<Object> readerOf(
      Kind kind, String name, StateSerializer<?> declared, boolean restoredElements) {
    List<byte[]> written = restoredSchemas.get(schemaStateName(kind, name));
    if (!(declared instanceof EvolvingSerializer<?> typed)) {
      if (written != null) {
        throw StateRestoreRefusal.declaredWithoutTypeSerializer(name, operatorUid);
      }
      return (StateSerializer<Object>) declared;
    }
    if (written == null || written.isEmpty()) {
      if (restoredElements) {
        throw StateRestoreRefusal.writtenWithoutTypeSerializer(name, operatorUid);
      }
      return (StateSerializer<Object>) declared;
    }
    try {
      // Every subtask of one version of the job wrote the same schema.
      return (StateSerializer<Object>) typed.readerOf(written.get(0));
    } catch (TypeChangedException e) {
      throw StateRestoreRefusal.typeChanged(name, operatorUid, e);
    }
  }

  /** Adds the schema of state {@code name} to a snapshot's union states when it is typed. */
  static void maybeSnapshot(
      Kind kind, String name, StateSerializer<?> serializer, Map<String, List<byte[]>> union) {
    if (serializer instanceof EvolvingSerializer<?> typed) {
      union.put(schemaStateName(kind, name), List.of(typed.schema()));
    }
  }

  private static String schemaStateName(Kind kind, String name) {
    return PREFIX + kind.name().toLowerCase(java.util.Locale.ROOT) + ":" + name;
  }
}
