using System;
using System.Collections.Generic;
using System.Linq;

namespace Example.Accounts
{
    /// <summary>A double-entry ledger.</summary>
    [Serializable]
    public class Ledger
    {
        private readonly List<Entry> _entries = new List<Entry>();

        public record Entry(DateTime When, string Account, decimal Amount);

        public int Count => _entries.Count;

        /// <summary>Post a transfer between two accounts.</summary>
        public void Transfer(string from, string to, decimal amount)
        {
            if (amount <= 0)
            {
                throw new ArgumentOutOfRangeException(nameof(amount));
            }
            var now = DateTime.UtcNow;
            _entries.Add(new Entry(now, from, -amount));
            _entries.Add(new Entry(now, to, amount));
        }

        public decimal Balance(string account)
        {
            return _entries.Where(e => e.Account == account).Sum(e => e.Amount);
        }

        public IEnumerable<string> Accounts()
        {
            foreach (var name in _entries.Select(e => e.Account).Distinct())
            {
                yield return name;
            }
        }
    }

    public interface IAudit
    {
        bool Check(Ledger ledger);
    }
}
