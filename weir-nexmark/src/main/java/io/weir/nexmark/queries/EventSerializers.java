package io.weir.nexmark.queries;

import io.weir.api.types.TypeSerializer;
import io.weir.nexmark.model.Auction;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Person;

/**
 * The serializers of the events the queries keep in keyed state. Declared state is written field by
 * field; undeclared state falls back to Java serialization, which the RocksDB backend would run on
 * every access. One instance per type, shared by every state that holds it.
 */
final class EventSerializers {
  static final TypeSerializer<Bid> BID = TypeSerializer.of(Bid.class);
  static final TypeSerializer<Auction> AUCTION = TypeSerializer.of(Auction.class);
  static final TypeSerializer<Person> PERSON = TypeSerializer.of(Person.class);

  private EventSerializers() {}
}
