//+------------------------------------------------------------------+
//|                                             LightningBridge.mq5  |
//|  Lightning Quant MT5 bridge: a pure-MQL5 WebSocket client (TLS)   |
//|  that dials out to wss://<host>/bridge/v1, receives order intents |
//|  for this account and reports results, deals, positions, balance.|
//|                                                                  |
//|  Once-only execution: every intent is journalled (RECEIVED ->     |
//|  SENDING before OrderSend -> RESULT) in MQL5/Files/lqbridge/      |
//|  <login>.jnl and carries its own magic number; a known clientId   |
//|  is answered "duplicate" with its stored result (only a verified  |
//|  not_found runs again when the server sends it again).            |
//|  After a restart, SENDING entries are looked up by magic.         |
//|                                                                  |
//|  NOT COMPILED IN THIS REPOSITORY (no MetaEditor here): compile    |
//|  with MetaEditor (F7) and run the scenarios of mt5/README.md on   |
//|  a demo account before using it with real money.                  |
//+------------------------------------------------------------------+
#property copyright   "Lightning Quant"
#property version     "1.00"
#property description "Lightning Quant bridge: runs your Lightning Quant robots on this MT5 account."
#property description "Allow-list the host in Tools > Options > Expert Advisors, paste your bridge token."

#include "BridgeProtocol.mqh"

//--- inputs: connection
input string InpHost              = "app.lightningquant.example"; // Server host (allow-list it: Tools > Options > Expert Advisors)
input int    InpPort              = 443;                          // Server port
input bool   InpUseTls            = true;                         // TLS (wss://); off only for a local test server
input string InpToken             = "";                           // Bridge token (shown once when you bound the account)
//--- inputs: local caps the server cannot raise
input string InpAllowedSymbols    = "";    // Allowed symbols, comma-separated (empty: Market Watch)
input double InpMaxLotsPerOrder   = 1.0;   // Max lots per order
input int    InpMaxOpenPositions  = 20;    // Max open positions (robot magics only)
input int    InpMaxOrdersPerMinute= 30;    // Max orders per minute
input bool   InpAllowRealAccount  = false; // Allow trading on a REAL account
input int    InpTimerMs           = 200;   // Poll interval (ms)

#define EA_VERSION          "1.0.0"
#define WS_GUID             "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
#define RECHECK_SECONDS     300
#define JOURNAL_KEEP_DAYS   7
#define SNAPSHOT_EVERY_MS   60000
#define MAX_HELLO_SYMBOLS   150
#define MAX_SNAPSHOT_ITEMS  200
#define CONNECT_TIMEOUT_MS  5000

enum ENUM_LQ_STATE { ST_IDLE = 0, ST_HANDSHAKE = 1, ST_HELLO = 2, ST_READY = 3 };

//--- connection state
int           g_sock = INVALID_HANDLE;
ENUM_LQ_STATE g_state = ST_IDLE;
uchar         g_rx[];
string        g_wsAccept = "";
string        g_fragment = "";
ulong         g_lastRxMs = 0, g_lastHbMs = 0, g_lastSnapMs = 0, g_nextConnectMs = 0, g_connectStartMs = 0;
int           g_backoffMs = 1000;
long          g_clockOffsetMs = 0;
bool          g_stop = false;
bool          g_halted = false;
bool          g_snapDirty = false;
int           g_mid = 0;
string        g_lockName = "";
string        g_login = "";
double        g_limitLots = 0;
int           g_limitPositions = 0;
int           g_limitOrdersPerMin = 0;
ulong         g_sendTimes[];

//--- journal (latest state per clientId; the file keeps every line)
int           g_jnl = INVALID_HANDLE;
string        j_id[];
string        j_magic[];
int           j_seq[];
string        j_state[];
string        j_result[];
string        j_intent[];
datetime      j_time[];
datetime      j_recheck[];
bool          j_unsent[];

//--- intent queue (executed one at a time, in seq order)
string        q_json[];
int           q_seq[];
//--- the intent being sent (retries after a backoff without Sleep)
int           g_cur = -1;
int           g_curAttempt = 0;
ulong         g_curNextMs = 0;
MqlTradeRequest g_curReq;

//+------------------------------------------------------------------+
//| small helpers                                                    |
//+------------------------------------------------------------------+
ulong NowMs() { return GetTickCount64(); }
long  UtcMs() { return (long)TimeGMT() * 1000; }
string U(const ulong v) { return IntegerToString((long)v); }

string D(const double v, const int digits = 8)
  {
   string s = DoubleToString(v, digits);
   if(StringFind(s, ".") >= 0)
     {
      int n = StringLen(s);
      while(n > 0 && StringGetCharacter(s, n - 1) == '0') n--;
      if(n > 0 && StringGetCharacter(s, n - 1) == '.') n--;
      s = StringSubstr(s, 0, n);
     }
   if(s == "-0") s = "0";
   return s;
  }

int StepDigits(const double step)
  {
   int d = 0;
   double x = step;
   while(d < 8 && MathAbs(x - MathRound(x)) > 1e-9) { x *= 10; d++; }
   return d;
  }

string JEsc(const string s)
  {
   string out = "";
   int n = StringLen(s);
   for(int i = 0; i < n; i++)
     {
      ushort c = StringGetCharacter(s, i);
      if(c == '"') out += "\\\"";
      else if(c == '\\') out += "\\\\";
      else if(c < 0x20 || c > 0x7E) out += StringFormat("\\u%04x", c); // ASCII only on the wire and in the journal
      else out += ShortToString(c);
     }
   return out;
  }

string JS(const string k, const string v)   { return "\"" + k + "\":\"" + JEsc(v) + "\""; }
string JR(const string k, const string raw) { return "\"" + k + "\":" + raw; }
string JB(const string k, const bool b)     { return "\"" + k + "\":" + (b ? "true" : "false"); }
string JSN(const string k, const string v)  { return v == "" ? JR(k, "null") : JS(k, v); }

string Head(const string type)
  {
   g_mid++;
   return "{\"v\":" + IntegerToString(LQ_PROTOCOL_VERSION) + "," + JS("type", type) + "," + JS("mid", "e" + IntegerToString(g_mid)) + "," + JR("ts", IntegerToString(UtcMs()));
  }

/** The \uXXXX escape's 4 hex digits at s[i]. */
ushort Hex4(const string &s, const int i)
  {
   ushort v = 0;
   for(int k = 0; k < 4; k++)
     {
      ushort c = StringGetCharacter(s, i + k);
      int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : 0;
      v = (ushort)(v * 16 + d);
     }
   return v;
  }

//+------------------------------------------------------------------+
//| minimal JSON reader: objects flattened to dotted keys             |
//+------------------------------------------------------------------+
class CJson
  {
public:
   string            keys[];
   string            vals[];
   bool              strs[];

   bool              Parse(const string s)
     {
      ArrayResize(keys, 0);
      ArrayResize(vals, 0);
      ArrayResize(strs, 0);
      int i = 0;
      return Value(s, i, "");
     }
   int               Find(const string k)
     {
      for(int i = 0; i < ArraySize(keys); i++) if(keys[i] == k) return i;
      return -1;
     }
   bool              Has(const string k) { return Find(k) >= 0; }
   bool              IsNull(const string k) { int i = Find(k); return i < 0 || (!strs[i] && vals[i] == "null"); }
   string            Str(const string k, const string def = "") { int i = Find(k); return (i < 0 || IsNull(k)) ? def : vals[i]; }
   long              Int(const string k, const long def = 0) { int i = Find(k); return (i < 0 || IsNull(k)) ? def : StringToInteger(vals[i]); }
   double            Num(const string k, const double def = 0) { int i = Find(k); return (i < 0 || IsNull(k)) ? def : StringToDouble(vals[i]); }

private:
   void              Add(const string k, const string v, const bool isStr)
     {
      int n = ArraySize(keys);
      ArrayResize(keys, n + 1);
      ArrayResize(vals, n + 1);
      ArrayResize(strs, n + 1);
      keys[n] = k;
      vals[n] = v;
      strs[n] = isStr;
     }
   void              Ws(const string &s, int &i)
     {
      int n = StringLen(s);
      while(i < n)
        {
         ushort c = StringGetCharacter(s, i);
         if(c != ' ' && c != '\t' && c != '\r' && c != '\n') break;
         i++;
        }
     }
   bool              ReadStr(const string &s, int &i, string &out)
     {
      int n = StringLen(s);
      out = "";
      if(i >= n || StringGetCharacter(s, i) != '"') return false;
      i++;
      while(i < n)
        {
         ushort c = StringGetCharacter(s, i);
         if(c == '"') { i++; return true; }
         if(c == '\\')
           {
            if(i + 1 >= n) return false;
            ushort e = StringGetCharacter(s, i + 1);
            i += 2;
            if(e == 'n') out += "\n";
            else if(e == 'r') out += "\r";
            else if(e == 't') out += "\t";
            else if(e == 'b') out += ShortToString(8);
            else if(e == 'f') out += ShortToString(12);
            else if(e == 'u')
              {
               if(i + 4 > n) return false;
               out += ShortToString(Hex4(s, i));
               i += 4;
              }
            else out += ShortToString(e);
            continue;
           }
         out += ShortToString(c);
         i++;
        }
      return false;
     }
   bool              Value(const string &s, int &i, const string path)
     {
      int n = StringLen(s);
      Ws(s, i);
      if(i >= n) return false;
      ushort c = StringGetCharacter(s, i);
      if(c == '{')
        {
         i++;
         Ws(s, i);
         if(i < n && StringGetCharacter(s, i) == '}') { i++; return true; }
         while(i < n)
           {
            string key;
            Ws(s, i);
            if(!ReadStr(s, i, key)) return false;
            Ws(s, i);
            if(i >= n || StringGetCharacter(s, i) != ':') return false;
            i++;
            if(!Value(s, i, path == "" ? key : path + "." + key)) return false;
            Ws(s, i);
            if(i < n && StringGetCharacter(s, i) == ',') { i++; continue; }
            if(i < n && StringGetCharacter(s, i) == '}') { i++; return true; }
            return false;
           }
         return false;
        }
      if(c == '[')
        {
         // arrays are kept raw (server messages carry none we need)
         int start = i, depth = 0;
         bool inStr = false;
         while(i < n)
           {
            ushort a = StringGetCharacter(s, i);
            if(inStr) { if(a == '\\') i++; else if(a == '"') inStr = false; }
            else if(a == '"') inStr = true;
            else if(a == '[' || a == '{') depth++;
            else if(a == ']' || a == '}') { depth--; if(depth == 0) { i++; Add(path, StringSubstr(s, start, i - start), false); return true; } }
            i++;
           }
         return false;
        }
      if(c == '"')
        {
         string v;
         if(!ReadStr(s, i, v)) return false;
         Add(path, v, true);
         return true;
        }
      int start = i;
      while(i < n)
        {
         ushort a = StringGetCharacter(s, i);
         if(a == ',' || a == '}' || a == ']' || a == ' ' || a == '\r' || a == '\n' || a == '\t') break;
         i++;
        }
      if(i == start) return false;
      Add(path, StringSubstr(s, start, i - start), false);
      return true;
     }
  };

//+------------------------------------------------------------------+
//| results                                                          |
//+------------------------------------------------------------------+
string MakeResult(const string outcome, const long retcode, const ulong order, const ulong deal, const string price, const string volume, const string comment)
  {
   return "{" + JS("outcome", outcome) + "," + JR("retcode", retcode < 0 ? "null" : IntegerToString(retcode)) + "," +
          JSN("order", order == 0 ? "" : U(order)) + "," + JSN("deal", deal == 0 ? "" : U(deal)) + "," +
          JSN("price", price) + "," + JSN("volume", volume) + "," + JSN("comment", StringSubstr(comment, 0, 120)) + "}";
  }

string ResultOutcome(const string result)
  {
   CJson r;
   if(!r.Parse(result)) return "";
   return r.Str("outcome");
  }

//+------------------------------------------------------------------+
//| journal: MQL5/Files/lqbridge/<login>.jnl, one TAB-separated line  |
//| per state change: time, clientId, seq, magic, state, result, intent|
//+------------------------------------------------------------------+
string JournalPath() { return "lqbridge\\" + g_login + ".jnl"; }
string HaltPath()    { return "lqbridge\\" + g_login + ".halt"; }

int JFind(const string id)
  {
   for(int i = ArraySize(j_id) - 1; i >= 0; i--) if(j_id[i] == id) return i;
   return -1;
  }

int JAdd(const string id, const int seq, const string magic, const string intent)
  {
   int n = ArraySize(j_id);
   ArrayResize(j_id, n + 1); ArrayResize(j_magic, n + 1); ArrayResize(j_seq, n + 1); ArrayResize(j_state, n + 1);
   ArrayResize(j_result, n + 1); ArrayResize(j_intent, n + 1); ArrayResize(j_time, n + 1); ArrayResize(j_recheck, n + 1);
   ArrayResize(j_unsent, n + 1);
   j_id[n] = id; j_magic[n] = magic; j_seq[n] = seq; j_state[n] = LQ_JNL_RECEIVED; j_result[n] = "null";
   j_intent[n] = intent; j_time[n] = TimeGMT(); j_recheck[n] = 0; j_unsent[n] = false;
   return n;
  }

string JLine(const int k)
  {
   return IntegerToString((long)j_time[k]) + "\t" + j_id[k] + "\t" + IntegerToString(j_seq[k]) + "\t" + j_magic[k] + "\t" +
          j_state[k] + "\t" + j_result[k] + "\t" + (j_intent[k] == "" ? "null" : j_intent[k]);
  }

bool JournalOpen()
  {
   FolderCreate("lqbridge");
   g_jnl = FileOpen(JournalPath(), FILE_READ | FILE_WRITE | FILE_TXT | FILE_ANSI | FILE_SHARE_READ);
   if(g_jnl == INVALID_HANDLE) { Print("LightningBridge: cannot open journal ", JournalPath(), " error ", GetLastError()); return false; }
   return true;
  }

/** Appends the entry's current state; flushed before anything else happens (write-ahead). */
bool JournalWrite(const int k)
  {
   if(g_jnl == INVALID_HANDLE) return false;
   FileSeek(g_jnl, 0, SEEK_END);
   if(FileWriteString(g_jnl, JLine(k) + "\r\n") <= 0) return false;
   FileFlush(g_jnl);
   return true;
  }

/** Loads the journal (latest line per clientId wins) and drops entries older than 7 days. */
void JournalLoad()
  {
   if(g_jnl == INVALID_HANDLE) return;
   FileSeek(g_jnl, 0, SEEK_SET);
   bool old = false;
   datetime keepFrom = TimeGMT() - JOURNAL_KEEP_DAYS * 86400;
   while(!FileIsEnding(g_jnl))
     {
      string line = FileReadString(g_jnl);
      string f[];
      if(StringSplit(line, '\t', f) < 7) continue;
      datetime t = (datetime)StringToInteger(f[0]);
      int k = JFind(f[1]);
      if(k < 0) k = JAdd(f[1], (int)StringToInteger(f[2]), f[3], f[6]);
      j_time[k] = t; j_state[k] = f[4]; j_result[k] = f[5];
      if(f[6] != "null") j_intent[k] = f[6];
      if(t < keepFrom) old = true;
     }
   if(!old) return;
   // compaction: rewrite the file with the kept entries' latest lines
   FileClose(g_jnl);
   g_jnl = FileOpen(JournalPath(), FILE_WRITE | FILE_TXT | FILE_ANSI | FILE_SHARE_READ);
   if(g_jnl == INVALID_HANDLE) return;
   for(int k = 0; k < ArraySize(j_id); k++)
      if(j_time[k] >= keepFrom) FileWriteString(g_jnl, JLine(k) + "\r\n");
   FileFlush(g_jnl);
   FileClose(g_jnl);
   JournalOpen();
  }

string JournalTail()
  {
   string out = "[";
   int n = ArraySize(j_id);
   int from = MathMax(0, n - LQ_JOURNAL_TAIL);
   datetime keepFrom = TimeGMT() - JOURNAL_KEEP_DAYS * 86400;
   bool first = true;
   for(int k = from; k < n; k++)
     {
      if(j_time[k] < keepFrom) continue;
      if(!first) out += ",";
      first = false;
      out += "{" + JS("clientId", j_id[k]) + "," + JR("seq", IntegerToString(j_seq[k])) + "," + JS("magic", j_magic[k]) + "," +
             JS("state", j_state[k]) + "," + JR("result", j_state[k] == LQ_JNL_RESULT ? j_result[k] : "null") + "}";
     }
   return out + "]";
  }

//+------------------------------------------------------------------+
//| finding an intent's traces by its magic                          |
//+------------------------------------------------------------------+
bool MagicOurs(const ulong magic) { return magic >= (ulong)LQ_MAGIC_BASE && magic < (ulong)LQ_MAGIC_BASE + (ulong)LQ_MAGIC_SPAN; }

/** Orders, deals of the last 7 days, positions with this magic; "" when nothing has it. */
string FindByMagic(const ulong magic)
  {
   if(HistorySelect(TimeCurrent() - JOURNAL_KEEP_DAYS * 86400, TimeCurrent() + 86400))
     {
      double vol = 0, cost = 0;
      ulong firstDeal = 0, firstOrder = 0;
      int total = HistoryDealsTotal();
      for(int i = 0; i < total; i++)
        {
         ulong t = HistoryDealGetTicket(i);
         if(t == 0 || (ulong)HistoryDealGetInteger(t, DEAL_MAGIC) != magic) continue;
         double v = HistoryDealGetDouble(t, DEAL_VOLUME);
         vol += v;
         cost += v * HistoryDealGetDouble(t, DEAL_PRICE);
         if(firstDeal == 0) { firstDeal = t; firstOrder = (ulong)HistoryDealGetInteger(t, DEAL_ORDER); }
        }
      if(vol > 0) return MakeResult(LQ_OUTCOME_FILLED, TRADE_RETCODE_DONE, firstOrder, firstDeal, D(cost / vol), D(vol), "resolved by magic");
     }
   for(int i = OrdersTotal() - 1; i >= 0; i--)
     {
      ulong t = OrderGetTicket(i);
      if(t == 0 || (ulong)OrderGetInteger(ORDER_MAGIC) != magic) continue;
      return MakeResult(LQ_OUTCOME_PLACED, TRADE_RETCODE_PLACED, t, 0, D(OrderGetDouble(ORDER_PRICE_OPEN)), D(OrderGetDouble(ORDER_VOLUME_INITIAL)), "resolved by magic");
     }
   for(int i = PositionsTotal() - 1; i >= 0; i--)
     {
      ulong t = PositionGetTicket(i);
      if(t == 0 || (ulong)PositionGetInteger(POSITION_MAGIC) != magic) continue;
      return MakeResult(LQ_OUTCOME_FILLED, TRADE_RETCODE_DONE, t, 0, D(PositionGetDouble(POSITION_PRICE_OPEN)), D(PositionGetDouble(POSITION_VOLUME)), "resolved by magic");
     }
   return "";
  }

/** Restart resolution: SENDING (and RECEIVED) entries are looked up; absent ones are unknown until the recheck. */
void ResolveJournal()
  {
   for(int k = 0; k < ArraySize(j_id); k++)
     {
      bool open = j_state[k] != LQ_JNL_RESULT || ResultOutcome(j_result[k]) == LQ_OUTCOME_UNKNOWN;
      if(!open) continue;
      string found = FindByMagic((ulong)StringToInteger(j_magic[k]));
      if(found != "") { Finish(k, found); continue; }
      if(j_state[k] == LQ_JNL_RECEIVED) { Finish(k, MakeResult(LQ_OUTCOME_NOT_FOUND, -1, 0, 0, "", "", "never sent (restart)")); continue; }
      if(j_state[k] != LQ_JNL_RESULT) Finish(k, MakeResult(LQ_OUTCOME_UNKNOWN, -1, 0, 0, "", "", "outcome unknown after restart"));
      j_recheck[k] = TimeGMT() + RECHECK_SECONDS;
     }
  }

void Recheck()
  {
   datetime now = TimeGMT();
   for(int k = 0; k < ArraySize(j_id); k++)
     {
      if(j_recheck[k] == 0 || j_recheck[k] > now) continue;
      j_recheck[k] = 0;
      string found = FindByMagic((ulong)StringToInteger(j_magic[k]));
      Finish(k, found != "" ? found : MakeResult(LQ_OUTCOME_NOT_FOUND, -1, 0, 0, "", "", "not found by magic"));
     }
  }

//+------------------------------------------------------------------+
//| WebSocket transport                                              |
//+------------------------------------------------------------------+
bool SendRaw(const uchar &b[], const int n)
  {
   if(g_sock == INVALID_HANDLE) return false;
   int sent = InpUseTls ? SocketTlsSend(g_sock, b, n) : SocketSend(g_sock, b, n);
   if(sent != n) { Print("LightningBridge: send failed, error ", GetLastError()); Disconnect(); return false; }
   return true;
  }

bool SendFrame(const int opcode, const uchar &data[], const int len)
  {
   int ext = len < 126 ? 0 : (len <= 65535 ? 2 : 8);
   uchar f[];
   ArrayResize(f, 2 + ext + 4 + len);
   f[0] = (uchar)(0x80 | opcode);
   int p = 2;
   if(ext == 0) f[1] = (uchar)(0x80 | len);
   else if(ext == 2) { f[1] = (uchar)(0x80 | 126); f[2] = (uchar)((len >> 8) & 0xFF); f[3] = (uchar)(len & 0xFF); p = 4; }
   else { f[1] = (uchar)(0x80 | 127); for(int i = 0; i < 8; i++) f[2 + i] = (uchar)((((ulong)len) >> (8 * (7 - i))) & 0xFF); p = 10; }
   uchar mask[4];
   for(int i = 0; i < 4; i++) { mask[i] = (uchar)(MathRand() & 0xFF); f[p + i] = mask[i]; }
   p += 4;
   for(int i = 0; i < len; i++) f[p + i] = (uchar)(data[i] ^ mask[i % 4]);
   return SendRaw(f, ArraySize(f));
  }

bool SendText(const string s)
  {
   if(g_state != ST_HELLO && g_state != ST_READY) return false;
   uchar b[];
   int n = StringToCharArray(s, b, 0, WHOLE_ARRAY, CP_UTF8) - 1; // without the trailing NUL
   if(n <= 0) return false;
   if(n > LQ_MAX_PAYLOAD) { Print("LightningBridge: message too large (", n, " bytes), not sent"); return false; }
   return SendFrame(0x1, b, n);
  }

string Base64(const uchar &data[])
  {
   uchar key[], out[];
   if(CryptEncode(CRYPT_BASE64, data, key, out) <= 0) return "";
   return CharArrayToString(out, 0, WHOLE_ARRAY, CP_ACP);
  }

void Disconnect()
  {
   if(g_sock != INVALID_HANDLE) SocketClose(g_sock);
   g_sock = INVALID_HANDLE;
   if(g_state != ST_IDLE) Print("LightningBridge: disconnected");
   g_state = ST_IDLE;
   ArrayResize(g_rx, 0);
   g_fragment = "";
   int jitter = MathRand() % 1000;
   g_nextConnectMs = NowMs() + g_backoffMs + jitter;
   g_backoffMs = MathMin(g_backoffMs * 2, 30000);
  }

void Connect()
  {
   g_sock = SocketCreate();
   if(g_sock == INVALID_HANDLE) { Print("LightningBridge: SocketCreate failed, error ", GetLastError()); Disconnect(); return; }
   if(!SocketConnect(g_sock, InpHost, InpPort, CONNECT_TIMEOUT_MS))
     {
      int err = GetLastError();
      if(err == 4014) // ERR_FUNCTION_NOT_ALLOWED: host not in the allowed list
        {
         Alert("LightningBridge: add ", InpHost, " to Tools > Options > Expert Advisors > 'Allow WebRequest for listed URL'");
         g_stop = true;
        }
      else Print("LightningBridge: cannot connect to ", InpHost, ":", InpPort, ", error ", err);
      Disconnect();
      return;
     }
   if(InpUseTls && !SocketTlsHandshake(g_sock, InpHost)) { Print("LightningBridge: TLS handshake failed, error ", GetLastError()); Disconnect(); return; }
   uchar nonce[16];
   for(int i = 0; i < 16; i++) nonce[i] = (uchar)(MathRand() & 0xFF);
   string key = Base64(nonce);
   uchar src[], hash[], none[];
   StringToCharArray(key + WS_GUID, src, 0, StringLen(key + WS_GUID), CP_ACP);
   CryptEncode(CRYPT_HASH_SHA1, src, none, hash);
   g_wsAccept = Base64(hash);
   string req = "GET " + LQ_BRIDGE_PATH + " HTTP/1.1\r\nHost: " + InpHost + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
                "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer " + InpToken + "\r\n" +
                "User-Agent: LightningBridge/" + EA_VERSION + "\r\n\r\n";
   uchar b[];
   int n = StringToCharArray(req, b, 0, StringLen(req), CP_ACP);
   g_state = ST_HANDSHAKE;
   g_connectStartMs = NowMs();
   if(!SendRaw(b, n)) return;
  }

/** Reads what is available without blocking. */
bool ReadSocket()
  {
   if(g_sock == INVALID_HANDLE) return false;
   uchar buf[];
   int n = 0;
   if(InpUseTls) n = SocketTlsReadAvailable(g_sock, buf, 65536);
   else
     {
      uint avail = SocketIsReadable(g_sock);
      if(avail > 0) n = SocketRead(g_sock, buf, avail, 10);
     }
   if(n < 0 || !SocketIsConnected(g_sock)) { Disconnect(); return false; }
   if(n > 0)
     {
      int old = ArraySize(g_rx);
      ArrayResize(g_rx, old + n);
      ArrayCopy(g_rx, buf, old, 0, n);
      g_lastRxMs = NowMs();
     }
   return true;
  }

void OnHandshake()
  {
   int n = ArraySize(g_rx);
   int end = -1;
   for(int i = 0; i + 3 < n; i++)
      if(g_rx[i] == '\r' && g_rx[i + 1] == '\n' && g_rx[i + 2] == '\r' && g_rx[i + 3] == '\n') { end = i + 4; break; }
   if(end < 0)
     {
      if(NowMs() - g_connectStartMs > 10000) { Print("LightningBridge: no handshake answer"); Disconnect(); }
      return;
     }
   string head = CharArrayToString(g_rx, 0, end, CP_ACP);
   ArrayRemove(g_rx, 0, end);
   if(StringFind(head, " 401 ") >= 0)
     {
      Alert("LightningBridge: the server refused the token. Paste the bridge token shown when you bound this account (or rotate it).");
      g_stop = true;
      Disconnect();
      return;
     }
   if(StringFind(head, " 101 ") < 0 || StringFind(head, g_wsAccept) < 0)
     {
      Print("LightningBridge: unexpected handshake answer: ", StringSubstr(head, 0, 80));
      Disconnect();
      return;
     }
   g_state = ST_HELLO;
   SendText(HelloJson());
  }

/** Next complete frame from g_rx; false when incomplete. */
bool NextFrame(int &opcode, bool &fin, uchar &payload[])
  {
   int n = ArraySize(g_rx);
   if(n < 2) return false;
   fin = (g_rx[0] & 0x80) != 0;
   opcode = g_rx[0] & 0x0F;
   bool masked = (g_rx[1] & 0x80) != 0;
   ulong len = g_rx[1] & 0x7F;
   int p = 2;
   if(len == 126) { if(n < 4) return false; len = ((ulong)g_rx[2] << 8) | g_rx[3]; p = 4; }
   else if(len == 127) { if(n < 10) return false; len = 0; for(int i = 0; i < 8; i++) len = (len << 8) | g_rx[2 + i]; p = 10; }
   if(len > (ulong)LQ_MAX_PAYLOAD * 4) { Print("LightningBridge: frame too large"); Disconnect(); return false; }
   uchar mask[4] = {0, 0, 0, 0};
   if(masked) { if(n < p + 4) return false; for(int i = 0; i < 4; i++) mask[i] = g_rx[p + i]; p += 4; }
   if((ulong)n < (ulong)p + len) return false;
   ArrayResize(payload, (int)len);
   for(int i = 0; i < (int)len; i++) payload[i] = (uchar)(g_rx[p + i] ^ mask[i % 4]);
   ArrayRemove(g_rx, 0, p + (int)len);
   return true;
  }

void OnFrames()
  {
   int opcode;
   bool fin;
   uchar payload[];
   while(g_sock != INVALID_HANDLE && NextFrame(opcode, fin, payload))
     {
      if(opcode == 0x1 || opcode == 0x0)
        {
         g_fragment += CharArrayToString(payload, 0, ArraySize(payload), CP_UTF8);
         if(!fin) continue;
         string text = g_fragment;
         g_fragment = "";
         OnMessage(text);
        }
      else if(opcode == 0x8)
        {
         int code = ArraySize(payload) >= 2 ? (payload[0] << 8) | payload[1] : 1005;
         string reason = ArraySize(payload) > 2 ? CharArrayToString(payload, 2, ArraySize(payload) - 2, CP_UTF8) : "";
         OnClose(code, reason);
         return;
        }
      else if(opcode == 0x9) SendFrame(0xA, payload, ArraySize(payload));
     }
  }

void OnClose(const int code, const string reason)
  {
   Print("LightningBridge: server closed the session: ", code, " ", reason);
   if(code == LQ_CLOSE_REVOKED || code == LQ_CLOSE_MISMATCH)
     {
      Alert("LightningBridge: ", reason, " (", code, "). Check the token and that this is the bound MT5 account.");
      g_stop = true;
     }
   else if(code == LQ_CLOSE_REPLACED)
     {
      Alert("LightningBridge: another terminal took over this account's bridge; this one stops.");
      g_stop = true;
     }
   else if(code == LQ_CLOSE_DUPLICATE) g_backoffMs = 30000;
   Disconnect();
  }

//+------------------------------------------------------------------+
//| outgoing messages                                                |
//+------------------------------------------------------------------+
bool SymbolAllowed(const string sym)
  {
   if(InpAllowedSymbols == "") return true;
   string list[];
   int n = StringSplit(InpAllowedSymbols, ',', list);
   for(int i = 0; i < n; i++) { string s = list[i]; StringTrimLeft(s); StringTrimRight(s); if(s == sym) return true; }
   return false;
  }

string SymbolJson(const string s)
  {
   int digits = (int)SymbolInfoInteger(s, SYMBOL_DIGITS);
   string mode = "market";
   long exe = SymbolInfoInteger(s, SYMBOL_TRADE_EXEMODE);
   if(exe == SYMBOL_TRADE_EXECUTION_REQUEST) mode = "request";
   else if(exe == SYMBOL_TRADE_EXECUTION_INSTANT) mode = "instant";
   else if(exe == SYMBOL_TRADE_EXECUTION_EXCHANGE) mode = "exchange";
   return "{" + JS("name", s) + "," + JS("base", SymbolInfoString(s, SYMBOL_CURRENCY_BASE)) + "," + JS("quote", SymbolInfoString(s, SYMBOL_CURRENCY_PROFIT)) + "," +
          JR("digits", IntegerToString(digits)) + "," + JS("point", D(SymbolInfoDouble(s, SYMBOL_POINT), 10)) + "," +
          JS("tickSize", D(SymbolInfoDouble(s, SYMBOL_TRADE_TICK_SIZE), 10)) + "," + JS("contractSize", D(SymbolInfoDouble(s, SYMBOL_TRADE_CONTRACT_SIZE))) + "," +
          JS("volumeMin", D(SymbolInfoDouble(s, SYMBOL_VOLUME_MIN))) + "," + JS("volumeMax", D(SymbolInfoDouble(s, SYMBOL_VOLUME_MAX))) + "," +
          JS("volumeStep", D(SymbolInfoDouble(s, SYMBOL_VOLUME_STEP))) + "," +
          JR("stopsLevel", IntegerToString(SymbolInfoInteger(s, SYMBOL_TRADE_STOPS_LEVEL))) + "," +
          JR("freezeLevel", IntegerToString(SymbolInfoInteger(s, SYMBOL_TRADE_FREEZE_LEVEL))) + "," +
          JR("fillingMode", IntegerToString(SymbolInfoInteger(s, SYMBOL_FILLING_MODE))) + "," + JS("executionMode", mode) + "}";
  }

string HelloJson()
  {
   string symbols = "[";
   int count = 0;
   if(InpAllowedSymbols != "")
     {
      string list[];
      int n = StringSplit(InpAllowedSymbols, ',', list);
      for(int i = 0; i < n && count < MAX_HELLO_SYMBOLS; i++)
        {
         string s = list[i];
         StringTrimLeft(s); StringTrimRight(s);
         if(s == "" || !SymbolSelect(s, true)) continue;
         symbols += (count++ > 0 ? "," : "") + SymbolJson(s);
        }
     }
   else
      for(int i = 0; i < SymbolsTotal(true) && count < MAX_HELLO_SYMBOLS; i++)
         symbols += (count++ > 0 ? "," : "") + SymbolJson(SymbolName(i, true));
   symbols += "]";
   long mm = AccountInfoInteger(ACCOUNT_MARGIN_MODE);
   string marginMode = mm == ACCOUNT_MARGIN_MODE_RETAIL_HEDGING ? "hedging" : (mm == ACCOUNT_MARGIN_MODE_EXCHANGE ? "exchange" : "netting");
   bool demo = AccountInfoInteger(ACCOUNT_TRADE_MODE) != ACCOUNT_TRADE_MODE_REAL;
   bool tradeAllowed = TerminalInfoInteger(TERMINAL_TRADE_ALLOWED) != 0 && AccountInfoInteger(ACCOUNT_TRADE_EXPERT) != 0 && MQLInfoInteger(MQL_TRADE_ALLOWED) != 0;
   string allowed = "[";
   if(InpAllowedSymbols != "")
     {
      string list[];
      int n = StringSplit(InpAllowedSymbols, ',', list);
      for(int i = 0; i < n; i++) { string s = list[i]; StringTrimLeft(s); StringTrimRight(s); if(s != "") allowed += (allowed == "[" ? "" : ",") + "\"" + JEsc(s) + "\""; }
     }
   allowed += "]";
   return Head(LQ_MSG_HELLO) + "," + JS("version", EA_VERSION) + "," + JS("login", g_login) + "," + JS("server", AccountInfoString(ACCOUNT_SERVER)) + "," +
          JS("company", AccountInfoString(ACCOUNT_COMPANY)) + "," + JS("currency", AccountInfoString(ACCOUNT_CURRENCY)) + "," +
          JS("marginMode", marginMode) + "," + JB("demo", demo) + "," + JB("tradeAllowed", tradeAllowed) + "," +
          JR("symbols", symbols) + "," + JR("journal", JournalTail()) + "," +
          "\"caps\":{" + JR("allowedSymbols", allowed) + "," + JS("maxLotsPerOrder", D(InpMaxLotsPerOrder)) + "," +
          JR("maxOpenPositions", IntegerToString(InpMaxOpenPositions)) + "," + JR("maxOrdersPerMinute", IntegerToString(InpMaxOrdersPerMinute)) + "," +
          JB("allowRealAccount", InpAllowRealAccount) + "}}";
  }

void SendAck(const string id, const int seq, const string status, const string reason, const string result)
  {
   SendText(Head(LQ_MSG_ACK) + "," + JS("clientId", id) + "," + JR("seq", IntegerToString(seq)) + "," + JS("status", status) + "," +
            JSN("reason", reason) + "," + JR("result", result) + "}");
  }

bool SendExec(const int k)
  {
   string r = j_result[k];
   string inner = StringSubstr(r, 1, StringLen(r) - 2);
   bool ok = g_state == ST_READY && SendText(Head(LQ_MSG_EXEC) + "," + JS("clientId", j_id[k]) + "," + inner + "}");
   j_unsent[k] = !ok;
   return ok;
  }

string DealJson(const ulong t)
  {
   long entry = HistoryDealGetInteger(t, DEAL_ENTRY);
   string e = entry == DEAL_ENTRY_IN ? "in" : (entry == DEAL_ENTRY_OUT ? "out" : (entry == DEAL_ENTRY_INOUT ? "inout" : "out_by"));
   long reason = HistoryDealGetInteger(t, DEAL_REASON);
   string why = reason == DEAL_REASON_EXPERT ? "expert" : reason == DEAL_REASON_SL ? "sl" : reason == DEAL_REASON_TP ? "tp" : reason == DEAL_REASON_SO ? "so" :
                reason == DEAL_REASON_CLIENT ? "client" : reason == DEAL_REASON_MOBILE ? "mobile" : reason == DEAL_REASON_WEB ? "web" : "other";
   string sym = HistoryDealGetString(t, DEAL_SYMBOL);
   int digits = (int)SymbolInfoInteger(sym, SYMBOL_DIGITS);
   return Head(LQ_MSG_DEAL) + "," + JS("deal", U(t)) + "," + JS("order", U((ulong)HistoryDealGetInteger(t, DEAL_ORDER))) + "," +
          JS("positionId", U((ulong)HistoryDealGetInteger(t, DEAL_POSITION_ID))) + "," + JS("magic", U((ulong)HistoryDealGetInteger(t, DEAL_MAGIC))) + "," +
          JS("symbol", sym) + "," + JS("side", HistoryDealGetInteger(t, DEAL_TYPE) == DEAL_TYPE_BUY ? "buy" : "sell") + "," + JS("entry", e) + "," +
          JS("volume", D(HistoryDealGetDouble(t, DEAL_VOLUME))) + "," + JS("price", D(HistoryDealGetDouble(t, DEAL_PRICE), digits)) + "," +
          JS("commission", D(HistoryDealGetDouble(t, DEAL_COMMISSION))) + "," + JS("swap", D(HistoryDealGetDouble(t, DEAL_SWAP))) + "," +
          JS("fee", D(HistoryDealGetDouble(t, DEAL_FEE))) + "," + JS("profit", D(HistoryDealGetDouble(t, DEAL_PROFIT))) + "," +
          JS("reason", why) + "," + JR("brokerTimeMsc", IntegerToString(HistoryDealGetInteger(t, DEAL_TIME_MSC))) + "}";
  }

bool DealIsOurs(const ulong t)
  {
   long type = HistoryDealGetInteger(t, DEAL_TYPE);
   return (type == DEAL_TYPE_BUY || type == DEAL_TYPE_SELL) && MagicOurs((ulong)HistoryDealGetInteger(t, DEAL_MAGIC));
  }

/** Deals of our magics since a broker time (ms), oldest first. */
void SendDealsSince(const long brokerMs)
  {
   datetime from = brokerMs > 0 ? (datetime)(brokerMs / 1000) : TimeCurrent() - JOURNAL_KEEP_DAYS * 86400;
   if(!HistorySelect(from, TimeCurrent() + 86400)) return;
   int total = HistoryDealsTotal();
   for(int i = 0; i < total; i++)
     {
      ulong t = HistoryDealGetTicket(i);
      if(t != 0 && DealIsOurs(t)) SendText(DealJson(t));
     }
  }

string PriceOrNull(const double p, const int digits) { return p == 0 ? "null" : "\"" + D(p, digits) + "\""; }

void SendSnapshot()
  {
   string pos = "[", ord = "[";
   int np = 0, no = 0;
   for(int i = 0; i < PositionsTotal() && np < MAX_SNAPSHOT_ITEMS; i++)
     {
      ulong t = PositionGetTicket(i);
      if(t == 0 || !MagicOurs((ulong)PositionGetInteger(POSITION_MAGIC))) continue;
      string sym = PositionGetString(POSITION_SYMBOL);
      int digits = (int)SymbolInfoInteger(sym, SYMBOL_DIGITS);
      pos += (np++ > 0 ? "," : "") + "{" + JS("ticket", U(t)) + "," + JS("symbol", sym) + "," +
             JS("side", PositionGetInteger(POSITION_TYPE) == POSITION_TYPE_BUY ? "buy" : "sell") + "," + JS("volume", D(PositionGetDouble(POSITION_VOLUME))) + "," +
             JS("priceOpen", D(PositionGetDouble(POSITION_PRICE_OPEN), digits)) + "," + JR("sl", PriceOrNull(PositionGetDouble(POSITION_SL), digits)) + "," +
             JR("tp", PriceOrNull(PositionGetDouble(POSITION_TP), digits)) + "," + JS("magic", U((ulong)PositionGetInteger(POSITION_MAGIC))) + "," +
             JS("profit", D(PositionGetDouble(POSITION_PROFIT))) + "," + JS("swap", D(PositionGetDouble(POSITION_SWAP))) + "," +
             JR("timeMsc", IntegerToString(PositionGetInteger(POSITION_TIME_MSC))) + "}";
     }
   for(int i = 0; i < OrdersTotal() && no < MAX_SNAPSHOT_ITEMS; i++)
     {
      ulong t = OrderGetTicket(i);
      if(t == 0 || !MagicOurs((ulong)OrderGetInteger(ORDER_MAGIC))) continue;
      long type = OrderGetInteger(ORDER_TYPE);
      bool buy = type == ORDER_TYPE_BUY || type == ORDER_TYPE_BUY_LIMIT || type == ORDER_TYPE_BUY_STOP || type == ORDER_TYPE_BUY_STOP_LIMIT;
      string kind = (type == ORDER_TYPE_BUY_LIMIT || type == ORDER_TYPE_SELL_LIMIT) ? "limit" : ((type == ORDER_TYPE_BUY || type == ORDER_TYPE_SELL) ? "market" : "stop");
      string sym = OrderGetString(ORDER_SYMBOL);
      ord += (no++ > 0 ? "," : "") + "{" + JS("ticket", U(t)) + "," + JS("symbol", sym) + "," + JS("side", buy ? "buy" : "sell") + "," + JS("type", kind) + "," +
             JS("volumeInitial", D(OrderGetDouble(ORDER_VOLUME_INITIAL))) + "," + JS("volumeCurrent", D(OrderGetDouble(ORDER_VOLUME_CURRENT))) + "," +
             JS("priceOpen", D(OrderGetDouble(ORDER_PRICE_OPEN), (int)SymbolInfoInteger(sym, SYMBOL_DIGITS))) + "," +
             JS("magic", U((ulong)OrderGetInteger(ORDER_MAGIC))) + "," + JR("timeMsc", IntegerToString(OrderGetInteger(ORDER_TIME_SETUP_MSC))) + "}";
     }
   if(SendText(Head(LQ_MSG_SNAPSHOT) + "," + JR("positions", pos + "]") + "," + JR("orders", ord + "]") + "}"))
     {
      g_snapDirty = false;
      g_lastSnapMs = NowMs();
     }
  }

void SendHeartbeat()
  {
   SendText(Head(LQ_MSG_HB) + "," + JB("termConnected", TerminalInfoInteger(TERMINAL_CONNECTED) != 0) + "," +
            JR("pingMs", IntegerToString(TerminalInfoInteger(TERMINAL_PING_LAST) / 1000)) + "," +
            JR("brokerTime", IntegerToString((long)TimeTradeServer())) + "," + JR("gmtTime", IntegerToString((long)TimeGMT())) + "," +
            JS("balance", D(AccountInfoDouble(ACCOUNT_BALANCE), 2)) + "," + JS("equity", D(AccountInfoDouble(ACCOUNT_EQUITY), 2)) + "," +
            JS("margin", D(AccountInfoDouble(ACCOUNT_MARGIN), 2)) + "," + JS("freeMargin", D(AccountInfoDouble(ACCOUNT_MARGIN_FREE), 2)) + "}");
   g_lastHbMs = NowMs();
  }

//+------------------------------------------------------------------+
//| incoming messages                                                |
//+------------------------------------------------------------------+
void OnMessage(const string text)
  {
   CJson m;
   if(!m.Parse(text) || m.Int("v") != LQ_PROTOCOL_VERSION) { Print("LightningBridge: unreadable message"); return; }
   string type = m.Str("type");
   if(type == LQ_MSG_WELCOME) OnWelcome(m);
   else if(type == LQ_MSG_INTENT) Enqueue(text, (int)m.Int("seq"));
   else if(type == LQ_MSG_HALT) SetHalted(true, m.Str("reason"));
   else if(type == LQ_MSG_RESUME) SetHalted(false, "");
   else if(type == LQ_MSG_BARS_REQ) OnBarsRequest(m);
   else if(type == LQ_MSG_ERROR) Print("LightningBridge: server error ", m.Str("code"), ": ", m.Str("message"));
   // hb_ack: nothing to do (g_lastRxMs is already updated)
  }

void OnWelcome(CJson &m)
  {
   g_clockOffsetMs = m.Int("serverUtc") - UtcMs();
   if(MathAbs(g_clockOffsetMs) > 60000) Print("LightningBridge: this PC's clock is ", g_clockOffsetMs / 1000, " s off the server's");
   g_limitLots = m.Num("limits.maxLotsPerOrder", InpMaxLotsPerOrder);
   g_limitPositions = (int)m.Int("limits.maxOpenPositions", InpMaxOpenPositions);
   g_limitOrdersPerMin = (int)m.Int("limits.maxOrdersPerMinute", InpMaxOrdersPerMinute);
   g_state = ST_READY;
   g_backoffMs = 1000;
   long cursor = m.Int("dealCursor");
   SendDealsSince(cursor > 0 ? cursor - LQ_DEAL_OVERLAP_MS : 0);
   for(int k = 0; k < ArraySize(j_id); k++) if(j_unsent[k]) SendExec(k);
   SendSnapshot();
   SendHeartbeat();
   Print("LightningBridge: session ", m.Str("sessionId"), " ready");
  }

/** Broker time minus UTC, rounded to 15 minutes (broker time is not UTC; TimeGMT is the PC clock). */
long BrokerOffsetSeconds()
  {
   long raw = (long)TimeTradeServer() - (long)TimeGMT();
   return (long)MathRound(raw / 900.0) * 900;
  }

/** Closed M1 bars of a symbol since a UTC time: the robots' candles (CopyRates, times back to UTC). */
void OnBarsRequest(CJson &m)
  {
   string sym = m.Str("symbol");
   string reqId = m.Str("reqId");
   int count = (int)MathMin(m.Int("count", LQ_MAX_BARS), LQ_MAX_BARS);
   long offset = BrokerOffsetSeconds();
   string err = "";
   string arr = "[";
   if(!SymbolAllowed(sym) || !SymbolSelect(sym, true)) err = "symbol not available";
   else
     {
      MqlRates rates[];
      datetime from = (datetime)(m.Int("fromMs") / 1000 + offset);
      int n = CopyRates(sym, PERIOD_M1, from, TimeTradeServer(), rates);
      if(n < 0) err = "history not loaded yet";
      datetime forming = iTime(sym, PERIOD_M1, 0);
      int digits = (int)SymbolInfoInteger(sym, SYMBOL_DIGITS);
      int added = 0;
      for(int i = 0; i < n && added < count; i++)
        {
         if(rates[i].time >= forming) break; // the bar still forming is never sent
         arr += (added++ > 0 ? "," : "") + "[" + IntegerToString(((long)rates[i].time - offset) * 1000) + ",\"" +
                D(rates[i].open, digits) + "\",\"" + D(rates[i].high, digits) + "\",\"" + D(rates[i].low, digits) + "\",\"" +
                D(rates[i].close, digits) + "\",\"" + IntegerToString(rates[i].tick_volume) + "\"]";
        }
     }
   SendText(Head(LQ_MSG_BARS) + "," + JS("reqId", reqId) + "," + JS("symbol", sym) + "," + JR("bars", arr + "]") + "," + JSN("error", err) + "}");
  }

void SetHalted(const bool on, const string reason)
  {
   g_halted = on;
   if(on)
     {
      int h = FileOpen(HaltPath(), FILE_WRITE | FILE_TXT | FILE_ANSI);
      if(h != INVALID_HANDLE) { FileWriteString(h, reason); FileClose(h); }
      Print("LightningBridge: HALTED by the server: ", reason);
     }
   else
     {
      FileDelete(HaltPath());
      Print("LightningBridge: resumed");
     }
  }

void Enqueue(const string json, const int seq)
  {
   int n = ArraySize(q_json);
   ArrayResize(q_json, n + 1);
   ArrayResize(q_seq, n + 1);
   int i = n;
   while(i > 0 && q_seq[i - 1] > seq) { q_json[i] = q_json[i - 1]; q_seq[i] = q_seq[i - 1]; i--; }
   q_json[i] = json;
   q_seq[i] = seq;
  }

//+------------------------------------------------------------------+
//| executing an intent: journal -> validate -> OrderCheck ->         |
//| journal SENDING -> OrderSend -> journal RESULT -> exec            |
//+------------------------------------------------------------------+
double MaxLots() { return g_limitLots > 0 ? MathMin(InpMaxLotsPerOrder, g_limitLots) : InpMaxLotsPerOrder; }
int MaxPositions() { return g_limitPositions > 0 ? MathMin(InpMaxOpenPositions, g_limitPositions) : InpMaxOpenPositions; }
int MaxPerMinute() { return g_limitOrdersPerMin > 0 ? MathMin(InpMaxOrdersPerMinute, g_limitOrdersPerMin) : InpMaxOrdersPerMinute; }

int OurPositions()
  {
   int c = 0;
   for(int i = PositionsTotal() - 1; i >= 0; i--) { ulong t = PositionGetTicket(i); if(t != 0 && MagicOurs((ulong)PositionGetInteger(POSITION_MAGIC))) c++; }
   return c;
  }

int SendsLastMinute()
  {
   ulong now = NowMs();
   int c = 0;
   for(int i = 0; i < ArraySize(g_sendTimes); i++) if(now - g_sendTimes[i] < 60000) c++;
   return c;
  }

ENUM_ORDER_TYPE_FILLING Filling(const string sym, const bool market)
  {
   if(!market) return ORDER_FILLING_RETURN;
   long modes = SymbolInfoInteger(sym, SYMBOL_FILLING_MODE);
   if((modes & SYMBOL_FILLING_FOK) != 0) return ORDER_FILLING_FOK;
   if((modes & SYMBOL_FILLING_IOC) != 0) return ORDER_FILLING_IOC;
   return ORDER_FILLING_RETURN; // market orders: only under Exchange execution
  }

double NormPrice(const string sym, const double p)
  {
   if(p == 0) return 0;
   double tick = SymbolInfoDouble(sym, SYMBOL_TRADE_TICK_SIZE);
   int digits = (int)SymbolInfoInteger(sym, SYMBOL_DIGITS);
   if(tick > 0) return NormalizeDouble(MathRound(p / tick) * tick, digits);
   return NormalizeDouble(p, digits);
  }

void FreshPrice(MqlTradeRequest &req)
  {
   if(req.action != TRADE_ACTION_DEAL) return;
   req.price = req.type == ORDER_TYPE_BUY ? SymbolInfoDouble(req.symbol, SYMBOL_ASK) : SymbolInfoDouble(req.symbol, SYMBOL_BID);
  }

/** Builds the trade request; "" when valid, else the reason it is refused. Volume is never rounded up. */
string BuildRequest(CJson &m, MqlTradeRequest &req)
  {
   ZeroMemory(req);
   string sym = m.Str("symbol");
   string action = m.Str("action");
   string side = m.Str("side");
   string kind = m.Str("orderType");
   ulong magic = (ulong)StringToInteger(m.Str("magic"));
   if(!MagicOurs(magic)) return "magic outside the robot range";
   if(!SymbolAllowed(sym)) return "symbol not allowed (input AllowedSymbols)";
   if(!SymbolSelect(sym, true)) return "unknown symbol";
   if(!InpAllowRealAccount && AccountInfoInteger(ACCOUNT_TRADE_MODE) == ACCOUNT_TRADE_MODE_REAL) return "real account not allowed (input AllowRealAccount)";
   double vol = StringToDouble(m.Str("volume"));
   double vmin = SymbolInfoDouble(sym, SYMBOL_VOLUME_MIN), vmax = SymbolInfoDouble(sym, SYMBOL_VOLUME_MAX), vstep = SymbolInfoDouble(sym, SYMBOL_VOLUME_STEP);
   bool opens = (action == LQ_ACTION_DEAL && m.IsNull("positionTicket")) || action == LQ_ACTION_PENDING;
   if(action == LQ_ACTION_DEAL || action == LQ_ACTION_PENDING)
     {
      if(vol < vmin - 1e-9 || vol > vmax + 1e-9) return "volume outside the symbol's min/max";
      if(vstep > 0 && MathAbs(vol / vstep - MathRound(vol / vstep)) > 1e-7) return "volume is not a multiple of the volume step";
      if(vol > MaxLots() + 1e-9) return "above MaxLotsPerOrder";
      if(SendsLastMinute() >= MaxPerMinute()) return "MaxOrdersPerMinute reached";
      if(opens && OurPositions() >= MaxPositions()) return "MaxOpenPositions reached";
     }
   int digits = (int)SymbolInfoInteger(sym, SYMBOL_DIGITS);
   double point = SymbolInfoDouble(sym, SYMBOL_POINT);
   req.magic = magic;
   req.symbol = sym;
   req.volume = NormalizeDouble(vol, StepDigits(vstep));
   req.deviation = (ulong)m.Int("deviationPts", 10);
   req.comment = "lq " + StringSubstr(m.Str("clientId"), 0, 20); // a tag only: brokers overwrite comments
   req.sl = NormPrice(sym, m.Num("sl"));
   req.tp = NormPrice(sym, m.Num("tp"));
   if(action == LQ_ACTION_DEAL)
     {
      req.action = TRADE_ACTION_DEAL;
      req.type = side == "buy" ? ORDER_TYPE_BUY : ORDER_TYPE_SELL;
      req.type_filling = Filling(sym, true);
      if(!m.IsNull("positionTicket"))
        {
         req.position = (ulong)StringToInteger(m.Str("positionTicket"));
         if(!PositionSelectByTicket(req.position)) return "position already closed";
        }
      FreshPrice(req);
     }
   else if(action == LQ_ACTION_PENDING)
     {
      req.action = TRADE_ACTION_PENDING;
      if(kind == "limit") req.type = side == "buy" ? ORDER_TYPE_BUY_LIMIT : ORDER_TYPE_SELL_LIMIT;
      else req.type = side == "buy" ? ORDER_TYPE_BUY_STOP : ORDER_TYPE_SELL_STOP;
      req.price = NormPrice(sym, m.Num("price"));
      if(req.price <= 0) return "pending order without a price";
      req.type_filling = Filling(sym, false);
      if(m.IsNull("expiry")) req.type_time = ORDER_TIME_GTC;
      else
        {
         req.type_time = ORDER_TIME_SPECIFIED;
         // expiry is UTC ms; the order wants broker time
         req.expiration = (datetime)(m.Int("expiry") / 1000) + (TimeTradeServer() - TimeGMT());
        }
     }
   else if(action == LQ_ACTION_SLTP)
     {
      req.action = TRADE_ACTION_SLTP;
      req.position = (ulong)StringToInteger(m.Str("positionTicket"));
      if(!PositionSelectByTicket(req.position)) return "position already closed";
     }
   else if(action == LQ_ACTION_REMOVE)
     {
      req.action = TRADE_ACTION_REMOVE;
      req.order = (ulong)StringToInteger(m.Str("orderTicket"));
      if(!OrderSelect(req.order)) return "order no longer pending";
     }
   else return "unknown action";
   // stops at least SYMBOL_TRADE_STOPS_LEVEL points away from the price they are checked against
   double ref = req.action == TRADE_ACTION_PENDING ? req.price : (side == "buy" ? SymbolInfoDouble(sym, SYMBOL_BID) : SymbolInfoDouble(sym, SYMBOL_ASK));
   double minDist = (double)SymbolInfoInteger(sym, SYMBOL_TRADE_STOPS_LEVEL) * point;
   if(req.sl > 0 && MathAbs(ref - req.sl) < minDist) return "stop loss inside the stops level";
   if(req.tp > 0 && MathAbs(ref - req.tp) < minDist) return "take profit inside the stops level";
   return "";
  }

/** Records the result (journal first) and reports it. */
void Finish(const int k, const string result)
  {
   j_state[k] = LQ_JNL_RESULT;
   j_result[k] = result;
   j_time[k] = TimeGMT();
   JournalWrite(k);
   SendExec(k);
   g_snapDirty = true;
  }

/** Refused before OrderSend: journalled as a rejected result, answered with a rejected ack. */
void RejectAt(const int k, const string reason)
  {
   j_state[k] = LQ_JNL_RESULT;
   j_result[k] = MakeResult(LQ_OUTCOME_REJECTED, -1, 0, 0, "", "", reason);
   JournalWrite(k);
   SendAck(j_id[k], j_seq[k], LQ_ACK_REJECTED, reason, "null");
  }

/** Takes the next queued intent (when none is being sent). */
void StartNext()
  {
   if(g_cur >= 0 || ArraySize(q_json) == 0) return;
   string json = q_json[0];
   ArrayRemove(q_json, 0, 1);
   ArrayRemove(q_seq, 0, 1);
   CJson m;
   if(!m.Parse(json)) return;
   string id = m.Str("clientId");
   int seq = (int)m.Int("seq");
   string magic = m.Str("magic");
   if(StringLen(id) == 0 || StringLen(id) > LQ_CLIENT_ID_MAX) return;
   int k = JFind(id);
   // a known clientId is answered with its stored result; only not_found (verified by magic that it
   // never executed) runs again when the server sends it again
   bool rerun = k >= 0 && j_state[k] == LQ_JNL_RESULT && ResultOutcome(j_result[k]) == LQ_OUTCOME_NOT_FOUND;
   if(k >= 0 && !rerun)
     {
      SendAck(id, seq, LQ_ACK_DUPLICATE, "", j_state[k] == LQ_JNL_RESULT ? j_result[k] : "null");
      return;
     }
   if(k < 0) k = JAdd(id, seq, magic, json);
   else { j_seq[k] = seq; j_intent[k] = json; j_result[k] = "null"; j_recheck[k] = 0; j_time[k] = TimeGMT(); j_unsent[k] = false; }
   j_state[k] = LQ_JNL_RECEIVED;
   long serverNow = UtcMs() + g_clockOffsetMs;
   if(serverNow > m.Int("ts") + m.Int("ttlMs")) { RejectAt(k, "expired"); return; }
   if(g_halted) { RejectAt(k, "halted"); return; }
   if(!JournalWrite(k)) { Print("LightningBridge: journal write failed: intent refused"); return; }
   string why = BuildRequest(m, g_curReq); // built in place (no struct copies)
   if(why != "") { RejectAt(k, why); return; }
   SendAck(id, seq, LQ_ACK_ACCEPTED, "", "null");
   MqlTradeCheckResult check;
   ZeroMemory(check);
   if(!OrderCheck(g_curReq, check) && check.retcode != 0)
     {
      Finish(k, MakeResult(LQ_OUTCOME_REJECTED, check.retcode, 0, 0, "", "", check.comment));
      return;
     }
   g_cur = k;
   g_curAttempt = 0;
   g_curNextMs = 0;
   TrySend();
  }

/** One OrderSend of the current intent. Retries (<= 2) only what the retcode table allows. */
void TrySend()
  {
   if(g_cur < 0 || NowMs() < g_curNextMs) return;
   int k = g_cur;
   if(j_state[k] != LQ_JNL_SENDING)
     {
      j_state[k] = LQ_JNL_SENDING;
      if(!JournalWrite(k)) { g_cur = -1; Finish(k, MakeResult(LQ_OUTCOME_REJECTED, -1, 0, 0, "", "", "journal write failed")); return; }
     }
   MqlTradeResult res;
   ZeroMemory(res);
   ResetLastError();
   bool sent = OrderSend(g_curReq, res);
   int n = ArraySize(g_sendTimes);
   ArrayResize(g_sendTimes, n + 1);
   g_sendTimes[n] = NowMs();
   if(n > 200) ArrayRemove(g_sendTimes, 0, n - 200);
   uint rc = res.retcode;
   ENUM_LQ_RETCODE_CLASS cls = (!sent && rc == 0) ? LQ_RC_UNKNOWN : LqRetcodeClass(rc);
   if(cls == LQ_RC_RETRY && g_curAttempt < 2)
     {
      CJson m;
      m.Parse(j_intent[k]);
      long deadline = m.Int("ts") + m.Int("ttlMs");
      if(UtcMs() + g_clockOffsetMs < deadline)
        {
         g_curAttempt++;
         bool backoff = rc == TRADE_RETCODE_TOO_MANY_REQUESTS || rc == TRADE_RETCODE_LOCKED || rc == TRADE_RETCODE_CONNECTION;
         g_curNextMs = NowMs() + (backoff ? 1000 * g_curAttempt : 0);
         FreshPrice(g_curReq);
         return; // the timer sends again (no Sleep in handlers)
        }
     }
   g_cur = -1;
   int digits = (int)SymbolInfoInteger(g_curReq.symbol, SYMBOL_DIGITS);
   string price = res.price > 0 ? D(res.price, digits) : "";
   string volume = res.volume > 0 ? D(res.volume) : "";
   string action = "";
   CJson m;
   if(m.Parse(j_intent[k])) action = m.Str("action");
   if(cls == LQ_RC_OK)
     {
      string outcome = rc == TRADE_RETCODE_PLACED ? LQ_OUTCOME_PLACED : (rc == TRADE_RETCODE_DONE_PARTIAL ? LQ_OUTCOME_PARTIAL : LQ_OUTCOME_FILLED);
      if(action == LQ_ACTION_REMOVE || action == LQ_ACTION_SLTP) outcome = LQ_OUTCOME_FILLED;
      Finish(k, MakeResult(outcome, rc, res.order, res.deal, price, volume, res.comment));
     }
   else if(cls == LQ_RC_UNKNOWN)
     {
      // never resend: look it up by magic now, and again in 5 minutes
      string found = FindByMagic(g_curReq.magic);
      if(found != "") Finish(k, found);
      else
        {
         Finish(k, MakeResult(LQ_OUTCOME_UNKNOWN, sent ? (long)rc : -1, res.order, res.deal, price, volume, res.comment));
         j_recheck[k] = TimeGMT() + RECHECK_SECONDS;
        }
     }
   else Finish(k, MakeResult(LQ_OUTCOME_REJECTED, rc, res.order, res.deal, price, volume, res.comment));
  }

//+------------------------------------------------------------------+
//| one instance per account (a second chart is refused)             |
//+------------------------------------------------------------------+
bool ChartAlive(const double id)
  {
   for(long c = ChartFirst(); c >= 0; c = ChartNext(c)) if((double)c == id) return true;
   return false;
  }

bool AcquireLock()
  {
   g_lockName = "lqbridge.lock." + g_login;
   double me = (double)ChartID();
   if(!GlobalVariableCheck(g_lockName)) GlobalVariableTemp(g_lockName);
   double holder = GlobalVariableGet(g_lockName);
   if(holder == me) return true;
   if(holder != 0)
     {
      if(ChartAlive(holder)) return false;
      GlobalVariableSetOnCondition(g_lockName, 0, holder); // its chart is gone: a stale lock
     }
   return GlobalVariableSetOnCondition(g_lockName, me, 0);
  }

void ReleaseLock()
  {
   if(g_lockName != "") GlobalVariableSetOnCondition(g_lockName, 0, (double)ChartID());
  }

//+------------------------------------------------------------------+
//| event handlers                                                   |
//+------------------------------------------------------------------+
int OnInit()
  {
   if(MQLInfoInteger(MQL_TESTER)) { Print("LightningBridge does not run in the strategy tester (no sockets there)."); return INIT_FAILED; }
   if(StringLen(InpToken) < 20) { Alert("LightningBridge: paste the bridge token into the input 'Bridge token'."); return INIT_PARAMETERS_INCORRECT; }
   g_login = IntegerToString(AccountInfoInteger(ACCOUNT_LOGIN));
   if(g_login == "0") return INIT_FAILED;
   if(!AcquireLock()) { Alert("LightningBridge already runs on another chart for account ", g_login, "."); return INIT_FAILED; }
   if(!JournalOpen()) { ReleaseLock(); return INIT_FAILED; }
   MathSrand((uint)(GetTickCount() ^ (uint)ChartID()));
   JournalLoad();
   ResolveJournal();
   g_halted = FileIsExist(HaltPath());
   if(g_halted) Print("LightningBridge: halted (kill switch from the server); waiting for resume");
   EventSetMillisecondTimer(MathMax(50, InpTimerMs));
   g_nextConnectMs = NowMs();
   return INIT_SUCCEEDED;
  }

void OnDeinit(const int reason)
  {
   EventKillTimer();
   if(g_sock != INVALID_HANDLE)
     {
      uchar bye[2] = {0x03, 0xE8}; // 1000 normal closure
      if(g_state == ST_READY || g_state == ST_HELLO) SendFrame(0x8, bye, 2);
      SocketClose(g_sock);
      g_sock = INVALID_HANDLE;
     }
   if(g_jnl != INVALID_HANDLE) { FileClose(g_jnl); g_jnl = INVALID_HANDLE; }
   ReleaseLock();
  }

void OnTimer()
  {
   ulong now = NowMs();
   if(g_sock == INVALID_HANDLE)
     {
      if(!g_stop && now >= g_nextConnectMs) Connect();
      return;
     }
   if(!ReadSocket()) return;
   if(g_state == ST_HANDSHAKE) { OnHandshake(); if(g_state != ST_HELLO) return; }
   OnFrames();
   if(g_sock == INVALID_HANDLE) return;
   if(now - g_lastRxMs > (ulong)LQ_RECONNECT_SILENCE_MS) { Print("LightningBridge: server silent, reconnecting"); Disconnect(); return; }
   if(g_state != ST_READY) return;
   if(now - g_lastHbMs >= (ulong)LQ_HEARTBEAT_MS) SendHeartbeat();
   Recheck();
   if(g_cur >= 0) TrySend();
   else StartNext();
   if(g_snapDirty || now - g_lastSnapMs >= SNAPSHOT_EVERY_MS) SendSnapshot();
  }

void OnTradeTransaction(const MqlTradeTransaction &trans, const MqlTradeRequest &request, const MqlTradeResult &result)
  {
   if(trans.type == TRADE_TRANSACTION_DEAL_ADD && trans.deal != 0)
     {
      // fills of our orders, also SL / TP / stop-out closes (they carry the position's magic)
      if(HistoryDealSelect(trans.deal) && DealIsOurs(trans.deal) && g_state == ST_READY) SendText(DealJson(trans.deal));
      g_snapDirty = true;
     }
   else if(trans.type == TRADE_TRANSACTION_ORDER_ADD || trans.type == TRADE_TRANSACTION_ORDER_DELETE || trans.type == TRADE_TRANSACTION_POSITION)
      g_snapDirty = true;
  }
//+------------------------------------------------------------------+
