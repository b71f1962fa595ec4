package io.weir.avro;

import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/** A specific record as Avro's compiler generates one, cut down to what reading and writing use. */
public final class AvroOrder extends SpecificRecordBase {
  public static final Schema SCHEMA$ =
      new Schema.Parser()
          .parse(
              "{\"type\":\"record\",\"name\":\"AvroOrder\",\"namespace\":\"io.weir.avro\","
                  + "\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
                  + "{\"name\":\"customer\",\"type\":{\"type\":\"string\","
                  + "\"avro.java.string\":\"String\"}},"
                  + "{\"name\":\"amount\",\"type\":\"double\"}]}");

  private long id;
  private String customer;
  private double amount;

  public AvroOrder() {}

  public AvroOrder(long id, String customer, double amount) {
    this.id = id;
    this.customer = customer;
    this.amount = amount;
  }

  public long id() {
    return id;
  }

  public String customer() {
    return customer;
  }

  public double amount() {
    return amount;
  }

  @Override
  public Schema getSchema() {
    return SCHEMA$;
  }

  @Override
  public Object get(int field) {
    return switch (field) {
      case 0 -> id;
      case 1 -> customer;
      case 2 -> amount;
      default -> throw new IndexOutOfBoundsException("no field " + field);
    };
  }

  @Override
  public void put(int field, Object value) {
    switch (field) {
      case 0 -> id = (Long) value;
      case 1 -> customer = value == null ? null : value.toString();
      case 2 -> amount = (Double) value;
      default -> throw new IndexOutOfBoundsException("no field " + field);
    }
  }
}
