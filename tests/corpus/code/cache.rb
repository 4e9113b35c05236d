# frozen_string_literal: true

require "json"
require "time"

# A tiny expiring cache.
module Cache
  # One stored value and when it expires.
  Entry = Struct.new(:value, :expires_at)

  class Store
    attr_reader :hits, :misses

    def initialize(ttl: 60)
      @ttl = ttl
      @data = {}
      @hits = 0
      @misses = 0
    end

    # Fetch a value, computing it with the block when missing or stale.
    def fetch(key)
      entry = @data[key]
      if entry && entry.expires_at > Time.now
        @hits += 1
        return entry.value
      end
      @misses += 1
      value = yield
      @data[key] = Entry.new(value, Time.now + @ttl)
      value
    end

    def to_json(*args)
      @data.transform_values(&:value).to_json(*args)
    end

    def self.from_hash(hash, ttl: 60)
      store = new(ttl: ttl)
      hash.each { |k, v| store.fetch(k) { v } }
      store
    end
  end
end

def default_store
  @default_store ||= Cache::Store.new
end
