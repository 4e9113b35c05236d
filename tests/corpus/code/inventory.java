package org.example.inventory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A small in-memory inventory: items by SKU, with stock movements.
 */
public class Inventory {
    private final Map<String, Item> items = new TreeMap<>();
    private final List<String> log = new ArrayList<>();

    /** One stock-keeping unit. */
    public record Item(String sku, String name, int quantity) {
        public Item {
            if (quantity < 0) {
                throw new IllegalArgumentException("negative quantity for " + sku);
            }
        }
    }

    /**
     * Add stock, creating the item when it is new.
     *
     * @param sku the item's code
     * @param name a readable name
     * @param quantity how many arrived
     */
    @SuppressWarnings("unused")
    public void receive(String sku, String name, int quantity) {
        Item old = items.get(sku);
        int total = old == null ? quantity : old.quantity() + quantity;
        items.put(sku, new Item(sku, name, total));
        log.add("receive " + sku + " " + quantity);
    }

    public boolean ship(String sku, int quantity) {
        Item old = items.get(sku);
        if (old == null || old.quantity() < quantity) {
            log.add("refused " + sku);
            return false;
        }
        items.put(sku, new Item(sku, old.name(), old.quantity() - quantity));
        log.add("ship " + sku + " " + quantity);
        return true;
    }

    public int count(String sku) {
        Item item = items.get(sku);
        return item == null ? 0 : item.quantity();
    }

    public List<String> history() {
        return List.copyOf(log);
    }

    enum Status { IN_STOCK, LOW, OUT }

    public Status status(String sku) {
        int n = count(sku);
        switch (n) {
            case 0:
                return Status.OUT;
            case 1:
            case 2:
                return Status.LOW;
            default:
                return Status.IN_STOCK;
        }
    }
}
