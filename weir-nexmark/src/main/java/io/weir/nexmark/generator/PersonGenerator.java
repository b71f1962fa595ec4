package io.weir.nexmark.generator;

import io.weir.nexmark.model.Person;
import java.util.List;
import java.util.Random;

/** Persons: US states and cities of the model, names from short lists, random emails and cards. */
final class PersonGenerator {
  static final List<String> STATES = List.of("AZ", "CA", "ID", "OR", "WA", "WY");
  static final List<String> CITIES =
      List.of(
          "Phoenix",
          "Los Angeles",
          "San Francisco",
          "Boise",
          "Portland",
          "Bend",
          "Redmond",
          "Seattle",
          "Kent",
          "Cheyenne");
  private static final List<String> FIRST_NAMES =
      List.of(
          "Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter",
          "Walter");
  private static final List<String> LAST_NAMES =
      List.of(
          "Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris");
  private static final int AVERAGE_SIZE = 200;

  private PersonGenerator() {}

  static Person person(long eventNumber, Random random, long timestamp) {
    long id = EventIds.lastPersonId(eventNumber) + EventIds.FIRST_PERSON_ID;
    String name = pick(random, FIRST_NAMES) + " " + pick(random, LAST_NAMES);
    String email = RandomValues.string(random, 7) + "@" + RandomValues.string(random, 5) + ".com";
    String creditCard =
        String.format(
            "%04d %04d %04d %04d",
            random.nextInt(10_000),
            random.nextInt(10_000),
            random.nextInt(10_000),
            random.nextInt(10_000));
    String city = pick(random, CITIES);
    String state = pick(random, STATES);
    int size = 8 + name.length() + email.length() + creditCard.length() + city.length() + 2 + 8;
    String extra = RandomValues.extra(random, size, AVERAGE_SIZE);
    return new Person(id, name, email, creditCard, city, state, timestamp, extra);
  }

  private static String pick(Random random, List<String> values) {
    return values.get(random.nextInt(values.size()));
  }
}
