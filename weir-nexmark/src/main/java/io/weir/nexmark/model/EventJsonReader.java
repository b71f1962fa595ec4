package io.weir.nexmark.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.util.Locale;

/**
 * Reads an event through Jackson's streaming parser, token by token into the record's constructor,
 * without the data binder: one member naming the event's kind, whose object holds each of that
 * kind's fields exactly once, in any order, as a whole number that fits a {@code long} or a string.
 * Anything else (fractions, nulls, a missing, repeated or unknown field, more than the one member,
 * JSON the parser rejects) is left to the binder ({@link #read} returns null), so every input is
 * read as the binder reads it and rejected where it rejects it.
 *
 * <p>The binder looks up the type, makes a deserialization context for every call, and builds each
 * record through a reflective constructor over boxed values; on the queries that only pass bids on,
 * that took more CPU than anything else on a record's path.
 */
final class EventJsonReader {
  /** The fields of one kind of event: their names in JSON and whether each is a string. */
  private enum Kind {
    PERSON(Person.class),
    AUCTION(Auction.class),
    BID(Bid.class);

    private final String name;
    private final String[] fieldNames;
    // The names quoted once, which the parser matches against the input's bytes directly.
    private final SerializedString[] quotedNames;
    private final boolean[] strings;

    Kind(Class<? extends Record> type) {
      this.name = name().toLowerCase(Locale.ROOT);
      RecordComponent[] components = type.getRecordComponents();
      this.fieldNames = new String[components.length];
      this.quotedNames = new SerializedString[components.length];
      this.strings = new boolean[components.length];
      for (int i = 0; i < components.length; i++) {
        fieldNames[i] = components[i].getName();
        quotedNames[i] = new SerializedString(fieldNames[i]);
        strings[i] = components[i].getType() == String.class;
      }
    }

    /** The index of the field named {@code fieldName}, or -1 when this kind has none. */
    int field(String fieldName) {
      for (int field = 0; field < fieldNames.length; field++) {
        if (fieldNames[field].equals(fieldName)) {
          return field;
        }
      }
      return -1;
    }

    /** The event of this kind from its fields, in the record's component order. */
    Event build(long[] longs, String[] strings) {
      return switch (this) {
        case PERSON ->
            Event.of(
                new Person(
                    longs[0],
                    strings[1],
                    strings[2],
                    strings[3],
                    strings[4],
                    strings[5],
                    longs[6],
                    strings[7]));
        case AUCTION ->
            Event.of(
                new Auction(
                    longs[0],
                    strings[1],
                    strings[2],
                    longs[3],
                    longs[4],
                    longs[5],
                    longs[6],
                    longs[7],
                    longs[8],
                    strings[9]));
        case BID ->
            Event.of(
                new Bid(
                    longs[0], longs[1], longs[2], strings[3], strings[4], longs[5], strings[6]));
      };
    }
  }

  // Kind.values() would copy its array on every call.
  private static final Kind[] KINDS = Kind.values();

  private final JsonParser parser;

  private EventJsonReader(JsonParser parser) {
    this.parser = parser;
  }

  /**
   * The event {@code json} holds, or null when it is not of the simple form this reader takes or
   * not JSON the parser takes; the binder then reads it, or says why it cannot.
   */
  static Event read(JsonFactory factory, byte[] json) {
    try (JsonParser parser = factory.createParser(json)) {
      return new EventJsonReader(parser).event();
    } catch (IOException e) {
      return null;
    }
  }

  private Event event() throws IOException {
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      return null;
    }
    Kind kind = kind(parser.nextFieldName());
    if (kind == null || parser.nextToken() != JsonToken.START_OBJECT) {
      return null;
    }
    Event event = fields(kind);
    // The binder ignores what follows the value by default; left to it, as are other members.
    boolean whole =
        event != null && parser.nextToken() == JsonToken.END_OBJECT && parser.nextToken() == null;
    return whole ? event : null;
  }

  private static Kind kind(String name) {
    if (name != null) {
      for (Kind kind : KINDS) {
        if (kind.name.equals(name)) {
          return kind;
        }
      }
    }
    return null;
  }

  /** Reads the kind's object after its opening brace, through its closing brace. */
  private Event fields(Kind kind) throws IOException {
    int count = kind.fieldNames.length;
    long[] longs = new long[count];
    String[] strings = new String[count];
    int seen = 0;
    for (int read = 0; read < count; read++) {
      int field = field(kind, read);
      if (field < 0 || (seen & (1 << field)) != 0) {
        return null;
      }
      seen |= 1 << field;
      JsonToken value = parser.nextToken();
      if (kind.strings[field]) {
        if (value != JsonToken.VALUE_STRING) {
          return null;
        }
        strings[field] = parser.getText();
      } else {
        if (value != JsonToken.VALUE_NUMBER_INT) {
          return null;
        }
        // Throws for a number beyond a long's range, which sends the input to the binder.
        longs[field] = parser.getLongValue();
      }
    }
    return parser.nextToken() == JsonToken.END_OBJECT ? kind.build(longs, strings) : null;
  }

  /**
   * Moves to the next field name: the index of its field in {@code kind}, or -1. The generator
   * writes the fields in the record's order, so the name expected at {@code position} is matched
   * first, byte for byte, without hashing it into the parser's name table.
   */
  private int field(Kind kind, int position) throws IOException {
    if (parser.nextFieldName(kind.quotedNames[position])) {
      return position;
    }
    return parser.currentToken() == JsonToken.FIELD_NAME ? kind.field(parser.currentName()) : -1;
  }
}
