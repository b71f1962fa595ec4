package io.weir.runtime.state;

import java.io.Serializable;
import java.util.HashMap;
import java.util.List;

/**
 * One typed state's entries in one restored key group of a heap snapshot: the schemas its values
 * were written with (one, or key and value for a map state), then each key's value as bytes.
 * Serializable because key groups of earlier versions hold it Java-serialized.
 */
record TypedKeyGroup(List<byte[]> schemas, HashMap<Object, byte[]> values)
    implements Serializable {}
