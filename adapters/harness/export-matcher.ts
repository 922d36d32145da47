import { DATE_TIME, UUID } from './match.ts';

/**
 * The matcher of match.ts as JavaScript source, for the test scripts of exported collections: Postman (newman) and
 * Bruno run a request's tests in their own sandboxes, which can load nothing of ours, so each script carries this
 * function. It is source text rather than a compiled function's `toString()` because a bundler's helpers (tsx keeps
 * names through calls that exist only in its own output) would not exist in those sandboxes.
 *
 * `signalboxMatch(expected, actual, exact, path, lookup)` returns one line per mismatch (`body.code: different
 * value (expected "X", got "Y")`), none when the response holds what the scenario expects. Before matching, every
 * `${name}` in `expected` is replaced by `lookup(name)`, the tool's variable of that name (a saved value), as the
 * runner expands an expectation before it matches: a whole-string `${name}` stands for the value itself.
 * test/export-matcher.test.ts holds it to match.ts's verdicts.
 */
export const MATCHER_SOURCE = String.raw`function signalboxMatch(expected, actual, exact, path, lookup) {
  var UUID = ${UUID};
  var DATE_TIME = ${DATE_TIME};
  var out = [];
  var wildcards = {
    $any: function (v) { return v !== undefined; },
    $string: function (v) { return typeof v === 'string'; },
    $number: function (v) { return typeof v === 'number'; },
    $boolean: function (v) { return typeof v === 'boolean'; },
    $array: function (v) { return Array.isArray(v); },
    $object: function (v) { return v !== null && typeof v === 'object' && !Array.isArray(v); },
    $uuid: function (v) { return typeof v === 'string' && UUID.test(v); },
    '$date-time': function (v) { return typeof v === 'string' && DATE_TIME.test(v); },
    $money: function (v) {
      return !!v && typeof v === 'object' && typeof v.currency === 'string' && Number.isInteger(v.amount) && Number.isInteger(v.scale);
    }
  };
  function show(v) { return v === undefined ? 'nothing' : JSON.stringify(v); }
  function isPlain(v) { return v !== null && typeof v === 'object' && !Array.isArray(v); }
  function resolve(v, at) {
    if (typeof v === 'string') {
      var whole = /^\$\{([\w.-]+)\}$/.exec(v);
      if (whole) return value(whole[1], at);
      return v.replace(/\$\{([\w.-]+)\}/g, function (_m, name) { return String(value(name, at)); });
    }
    if (Array.isArray(v)) return v.map(function (e) { return resolve(e, at); });
    if (isPlain(v)) {
      var o = {};
      Object.keys(v).forEach(function (k) { o[k] = resolve(v[k], at); });
      return o;
    }
    return v;
  }
  function value(name, at) {
    var v = lookup(name);
    if (v === undefined) out.push(at + ': $' + '{' + name + '} was not saved by an earlier request');
    return v;
  }
  function isMatcher(v) {
    if (!isPlain(v)) return false;
    var keys = Object.keys(v);
    return keys.length > 0 && keys.every(function (k) { return k.charAt(0) === '$' && k.charAt(1) !== '$'; });
  }
  function child(at, k) { return typeof k === 'number' ? at + '[' + k + ']' : at ? at + '.' + k : k; }
  function matches(e, a) { var saved = out; out = []; walk(e, a, ''); var ok = out.length === 0; out = saved; return ok; }
  function fail(at, e, a, message) { out.push(at + ': ' + message + ' (expected ' + show(e) + ', got ' + show(a) + ')'); }
  function walk(e, a, at) {
    if (typeof e === 'string' && e.charAt(0) === '$' && e.charAt(1) !== '$') {
      if (e === '$absent') { if (a !== undefined) fail(at, e, a, 'expected no value'); return; }
      var test = wildcards[e];
      if (!test) fail(at, e, a, 'unknown wildcard ' + e);
      else if (!test(a)) fail(at, e, a, 'expected ' + e.slice(1));
      return;
    }
    if (isMatcher(e)) { operators(e, a, at); return; }
    if (Array.isArray(e)) {
      if (!Array.isArray(a)) fail(at, e, a, 'expected an array');
      else if (a.length !== e.length) fail(at, e, a, 'expected ' + e.length + ' items, got ' + a.length);
      else for (var i = 0; i < e.length; i++) walk(e[i], a[i], child(at, i));
      return;
    }
    if (e !== null && typeof e === 'object') {
      if (!isPlain(a)) { fail(at, e, a, 'expected an object'); return; }
      Object.keys(e).forEach(function (k) { walk(e[k], a[k], child(at, k)); });
      if (exact) Object.keys(a).forEach(function (k) { if (!(k in e)) fail(child(at, k), undefined, a[k], 'unexpected field (exact match)'); });
      return;
    }
    var literal = typeof e === 'string' && e.slice(0, 2) === '$$' ? e.slice(1) : e;
    if (!Object.is(literal, a)) fail(at, e, a, a === undefined ? 'missing' : 'different value');
  }
  function operators(ops, a, at) {
    Object.keys(ops).forEach(function (op) {
      var arg = ops[op];
      function no(message) { fail(at, ops, a, message); }
      if (op === '$length') {
        var n = Array.isArray(a) || typeof a === 'string' ? a.length : undefined;
        if (n === undefined) no('expected something with a length');
        else if (typeof arg === 'number' ? n !== arg : arg.min > n || n > (arg.max === undefined ? Infinity : arg.max)) no('length ' + n + ' is not ' + JSON.stringify(arg));
      } else if (op === '$gte') { if (!(typeof a === 'number' && a >= arg)) no('expected ≥ ' + arg); }
      else if (op === '$gt') { if (!(typeof a === 'number' && a > arg)) no('expected > ' + arg); }
      else if (op === '$lte') { if (!(typeof a === 'number' && a <= arg)) no('expected ≤ ' + arg); }
      else if (op === '$lt') { if (!(typeof a === 'number' && a < arg)) no('expected < ' + arg); }
      else if (op === '$regex') { if (!(typeof a === 'string' && new RegExp(arg).test(a))) no('expected to match /' + arg + '/'); }
      else if (op === '$contains') {
        if (!Array.isArray(a)) no('expected an array');
        else arg.forEach(function (w) { if (!a.some(function (x) { return matches(w, x); })) no('no item matches ' + JSON.stringify(w)); });
      } else if (op === '$anyOrder') {
        if (!Array.isArray(a) || a.length !== arg.length) { no('expected ' + arg.length + ' items in any order'); return; }
        var free = a.slice();
        arg.forEach(function (w) {
          var i = free.findIndex(function (x) { return matches(w, x); });
          if (i < 0) no('no item matches ' + JSON.stringify(w));
          else free.splice(i, 1);
        });
      } else no('unknown matcher ' + op);
    });
  }
  var wanted = resolve(expected, path);
  if (out.length > 0) return out;
  walk(wanted, actual, path);
  return out;
}`;
