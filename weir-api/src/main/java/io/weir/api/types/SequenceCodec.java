package io.weir.api.types;

import java.util.Collection;
import java.util.function.IntFunction;

/** A list or set: the element count, then each element. */
final class SequenceCodec implements Codec {
  private final String kind;
  private final Codec element;
  private final IntFunction<Collection<Object>> factory;
  private final Schema schema;

  SequenceCodec(String kind, Codec element, IntFunction<Collection<Object>> factory) {
    this.kind = kind;
    this.element = element;
    this.factory = factory;
    schema = new Schema.Sequence(kind, element.schema());
  }

  SequenceCodec withElement(Codec reader) {
    return new SequenceCodec(kind, reader, factory);
  }

  Codec element() {
    return element;
  }

  @Override
  public void write(BinaryOutput out, Object value) {
    Collection<?> collection = (Collection<?>) value;
    out.writeUnsigned(collection.size());
    for (Object item : collection) {
      element.write(out, item);
    }
  }

  @Override
  public Object read(BinaryInput in) {
    int size = in.readUnsigned();
    Collection<Object> collection = factory.apply(size);
    for (int i = 0; i < size; i++) {
      collection.add(element.read(in));
    }
    return collection;
  }

  @Override
  public Schema schema() {
    return schema;
  }
}
