package io.weir.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The JSON deserializer reads Java records and POJOs, and says in one line why a value does not
 * read; the source's line around it names topic, partition and offset.
 */
class JsonRecordDeserializerTest {
  record Line(String sku, int quantity) {}

  record Order(long id, String customer, double amount, List<Line> lines) {}

  /** A POJO as older code has them: a no-argument constructor and setters. */
  public static final class Customer {
    private String name;
    private int age;

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public int getAge() {
      return age;
    }

    public void setAge(int age) {
      this.age = age;
    }
  }

  private final JsonRecordDeserializer<Order> orders = KafkaRecordDeserializer.json(Order.class);

  @Test
  void when_valueFitsTheRecord_then_everyFieldIsRead() throws Exception {
    Order order =
        orders.deserialize(
            record(
                "{\"id\":7,\"customer\":\"ada\",\"amount\":12.5,\"extra\":true,"
                    + "\"lines\":[{\"sku\":\"x-1\",\"quantity\":2}]}"));

    assertThat(order).isEqualTo(new Order(7, "ada", 12.5, List.of(new Line("x-1", 2))));
  }

  @Test
  void when_valueIsAPojo_then_itsSettersAreUsed() throws Exception {
    Customer customer =
        KafkaRecordDeserializer.json(Customer.class)
            .deserialize(record("{\"name\":\"ada\",\"age\":36}"));

    assertThat(customer.getName()).isEqualTo("ada");
    assertThat(customer.getAge()).isEqualTo(36);
  }

  @Test
  void when_valueIsNotJson_then_theLineSaysSoWithLineAndColumn() {
    assertThat(problemOf("{\"id\": 7, oops}"))
        .startsWith("not JSON: Unexpected character ('o'")
        .endsWith("at line 1, column 11")
        .doesNotContain("\n");
  }

  @Test
  void when_aFieldHasTheWrongType_then_theLineNamesTypeAndField() {
    assertThat(problemOf("{\"id\":\"seven\",\"customer\":\"ada\",\"amount\":1,\"lines\":[]}"))
        .startsWith("JSON does not fit Order at 'id': Cannot deserialize value of type `long`")
        .doesNotContain("\n");
  }

  @Test
  void when_aNestedFieldHasTheWrongType_then_theLineNamesItsPath() {
    assertThat(
            problemOf(
                "{\"id\":1,\"customer\":\"ada\",\"amount\":1,"
                    + "\"lines\":[{\"sku\":\"a\",\"quantity\":1},{\"sku\":\"b\",\"quantity\":\"x\"}]}"))
        .startsWith("JSON does not fit Order at 'lines[1].quantity': ");
  }

  @Test
  void when_aRecordComponentIsMissing_then_theLineNamesIt() {
    assertThat(problemOf("{\"id\":1,\"customer\":\"ada\",\"lines\":[]}"))
        .startsWith("JSON does not fit Order at 'amount': ")
        .contains("Missing creator property 'amount'");
  }

  @Test
  void when_valueIsEmptyOrMissing_then_theLineSaysSo() {
    assertThat(problemOf("")).isEqualTo("the record's value is empty, not JSON");
    assertThat(problemOf(null)).isEqualTo("the record has no value");
  }

  @Test
  void when_jsonIsFollowedByMore_then_itDoesNotFit() {
    assertThat(problemOf("{\"id\":1,\"customer\":\"a\",\"amount\":1,\"lines\":[]} {}"))
        .startsWith("JSON does not fit Order: Trailing token");
  }

  @Test
  void when_theSourceReportsIt_then_oneLineNamesTopicPartitionOffsetAndCause() {
    ConsumerRecord<byte[], byte[]> record =
        new ConsumerRecord<>("orders", 3, 41L, null, "{x".getBytes(StandardCharsets.UTF_8));
    Throwable failure = catchThrowable(() -> orders.deserialize(record));

    assertThat(UnreadableRecord.describe(record, failure))
        .startsWith(
            "Cannot deserialize the record at offset 41 of topic 'orders', partition 3: not JSON: ")
        .doesNotContain("\n");
  }

  @Test
  void when_aDeserializerThrowsSomethingElse_then_theLineKeepsItsClass() {
    assertThat(UnreadableRecord.cause(new NumberFormatException("For input string: \"x\"")))
        .isEqualTo("NumberFormatException: For input string: \"x\"");
    assertThat(UnreadableRecord.cause(new NullPointerException()))
        .isEqualTo("NullPointerException");
  }

  private String problemOf(String value) {
    Throwable failure = catchThrowable(() -> orders.deserialize(record(value)));
    assertThat(failure).isInstanceOf(UnreadableValueException.class);
    return failure.getMessage();
  }

  private static ConsumerRecord<byte[], byte[]> record(String value) {
    return new ConsumerRecord<>(
        "orders", 0, 0L, null, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
  }
}
