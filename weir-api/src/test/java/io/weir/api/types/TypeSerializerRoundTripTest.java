package io.weir.api.types;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.state.StateSerializer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class TypeSerializerRoundTripTest {
  enum Channel {
    WEB,
    STORE,
    PHONE
  }

  record Line(String sku, int quantity, double price) {}

  record Order(
      long id,
      String customer,
      Channel channel,
      boolean paid,
      Integer discount,
      byte[] signature,
      List<Line> lines,
      Map<String, Long> counters,
      Set<String> tags) {}

  /** A POJO by Flink's rules: public fields and a property with getter and setter. */
  public static class Account {
    public String owner;
    public long balance;
    private List<String> aliases;

    public Account() {}

    public List<String> getAliases() {
      return aliases;
    }

    public void setAliases(List<String> aliases) {
      this.aliases = aliases;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Account account
          && Objects.equals(owner, account.owner)
          && balance == account.balance
          && Objects.equals(aliases, account.aliases);
    }

    @Override
    public int hashCode() {
      return Objects.hash(owner, balance, aliases);
    }
  }

  private final TypeSerializer<Order> orders = TypeSerializer.of(Order.class);
  private final TypeSerializer<Account> accounts = TypeSerializer.of(Account.class);

  @Property
  void when_anOrderIsSerialized_then_itReadsBackEqual(@ForAll("orders") Order order) {
    Order read = orders.deserialize(orders.serialize(order));

    assertThat(read).usingRecursiveComparison().isEqualTo(order);
  }

  @Property
  void when_aPojoIsSerialized_then_itReadsBackEqual(@ForAll("accounts") Account account) {
    assertThat(accounts.deserialize(accounts.serialize(account))).isEqualTo(account);
  }

  @Property
  void when_aValueIsReadThroughItsOwnSchema_then_itIsTheSameSerializer(
      @ForAll("orders") Order order) {
    StateSerializer<Order> reader = orders.readerOf(orders.schema());

    assertThat(reader).isSameAs(orders);
  }

  @Property
  void when_leavesAreSerialized_then_theyReadBackEqual(
      @ForAll long number, @ForAll String text, @ForAll int integer, @ForAll double real) {
    assertThat(roundTrip(Long.class, number)).isEqualTo(number);
    assertThat(roundTrip(String.class, text)).isEqualTo(text);
    assertThat(roundTrip(Integer.class, integer)).isEqualTo(integer);
    assertThat(roundTrip(Double.class, real)).isEqualTo(real);
  }

  private static <T> T roundTrip(Class<T> type, T value) {
    TypeSerializer<T> serializer = TypeSerializer.of(type);
    return serializer.deserialize(serializer.serialize(value));
  }

  @Provide
  Arbitrary<Order> orders() {
    Arbitrary<Line> line =
        Combinators.combine(
                Arbitraries.strings().ofMaxLength(12),
                Arbitraries.integers(),
                Arbitraries.doubles())
            .as(Line::new);
    return Combinators.combine(
            Arbitraries.longs(),
            Arbitraries.strings().injectNull(0.1),
            Arbitraries.of(Channel.class).injectNull(0.1),
            Arbitraries.of(true, false),
            Arbitraries.integers().injectNull(0.3),
            Arbitraries.bytes().array(byte[].class).ofMaxSize(16).injectNull(0.2),
            line.list().ofMaxSize(4),
            Arbitraries.maps(Arbitraries.strings().ofMaxLength(6), Arbitraries.longs())
                .ofMaxSize(4))
        .as(
            (id, customer, channel, paid, discount, signature, lines, counters) ->
                new Order(
                    id,
                    customer,
                    channel,
                    paid,
                    discount,
                    signature,
                    lines,
                    counters,
                    counters.keySet()));
  }

  @Provide
  Arbitrary<Account> accounts() {
    return Combinators.combine(
            Arbitraries.strings().injectNull(0.1),
            Arbitraries.longs(),
            Arbitraries.strings().ofMaxLength(5).list().ofMaxSize(3).injectNull(0.2))
        .as(
            (owner, balance, aliases) -> {
              Account account = new Account();
              account.owner = owner;
              account.balance = balance;
              account.setAliases(aliases);
              return account;
            });
  }
}
