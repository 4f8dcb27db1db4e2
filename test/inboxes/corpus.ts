// Real-shaped messages as mail clients write them, for the corpus tests: replies from Gmail, Outlook
// and Apple Mail, a forward, inline images, attachments with non-ASCII names, 8-bit headers, a legacy
// charset, and broken MIME.
import { crlf } from './support.ts';

export interface CorpusMessage {
  name: string;
  raw: (to: string) => Buffer;
}

export const GMAIL_REPLY: CorpusMessage = {
  name: 'Gmail reply',
  raw: (to) =>
    crlf(`MIME-Version: 1.0
Date: Wed, 25 Nov 2026 09:12:33 +0100
References: <CAHx7Zs1=abc@mail.gmail.com>
In-Reply-To: <CAHx7Zs1=abc@mail.gmail.com>
Message-ID: <CAHx7Zs2=def@mail.gmail.com>
Subject: Re: Invoice 1042
From: Sam Doe <sam.doe@gmail.test>
To: ${to}
Content-Type: multipart/alternative; boundary="000000000000a1b2c3"

--000000000000a1b2c3
Content-Type: text/plain; charset="UTF-8"

Paid this morning, thanks!

On Tue, Nov 24, 2026 at 6:01 PM Acme Billing <${to}> wrote:

> Hello Sam, your invoice 1042 is due.
>

--000000000000a1b2c3
Content-Type: text/html; charset="UTF-8"
Content-Transfer-Encoding: quoted-printable

<div dir=3D"ltr">Paid this morning, thanks!</div><br><div class=3D"gmail_quote"><div dir=3D"ltr" class=3D"gmail_attr">On Tue, Nov 24, 2026 at 6:01 PM Acme Billing &lt;${to}&gt; wrote:<br></div><blockquote class=3D"gmail_quote" style=3D"margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">Hello Sam, your invoice 1042 is due.</blockquote></div>

--000000000000a1b2c3--
`),
};

export const OUTLOOK_REPLY: CorpusMessage = {
  name: 'Outlook reply',
  raw: (to) =>
    crlf(`From: Pat Lee <pat.lee@contoso.test>
To: Acme Support <${to}>
Subject: RE: Ticket #881
Thread-Topic: Ticket #881
Thread-Index: AQHZ1234abcd
Date: Wed, 25 Nov 2026 08:00:00 +0000
Message-ID: <DB9PR01MB1234ABCD@DB9PR01MB1234.eurprd01.prod.outlook.test>
Content-Language: en-US
Content-Type: multipart/alternative; boundary="_000_DB9PR01MB1234_"
MIME-Version: 1.0

--_000_DB9PR01MB1234_
Content-Type: text/plain; charset="iso-8859-1"
Content-Transfer-Encoding: quoted-printable

The issue is fixed now, merci.

________________________________
From: Acme Support <${to}>
Sent: Tuesday, November 24, 2026 5:00 PM
To: Pat Lee <pat.lee@contoso.test>
Subject: Ticket #881

Can you try again?

--_000_DB9PR01MB1234_
Content-Type: text/html; charset="iso-8859-1"
Content-Transfer-Encoding: quoted-printable

<html><head><meta http-equiv=3D"Content-Type" content=3D"text/html; charset=3Diso-8859-1"><style type=3D"text/css" style=3D"display:none;"> P {margin-top:0;margin-bottom:0;} </style></head><body dir=3D"ltr"><div style=3D"font-family: Calibri, Arial, Helvetica, sans-serif; font-size: 12pt; color: rgb(0, 0, 0);">The issue is fixed now, merci.</div><hr style=3D"display:inline-block;width:98%" tabindex=3D"-1"><div id=3D"divRplyFwdMsg" dir=3D"ltr"><b>From:</b> Acme Support<br><b>Sent:</b> Tuesday, November 24, 2026 5:00 PM</div><div>Can you try again?</div></body></html>

--_000_DB9PR01MB1234_--
`),
};

export const APPLE_REPLY: CorpusMessage = {
  name: 'Apple Mail reply',
  raw: (to) =>
    crlf(`From: Kim Park <kim@icloud.test>
Content-Type: text/plain; charset=us-ascii
Content-Transfer-Encoding: 7bit
Mime-Version: 1.0 (1.0)
Subject: Re: Your order
Date: Wed, 25 Nov 2026 11:22:33 +0900
Message-Id: <A1B2C3D4-1111-2222-3333-444455556666@icloud.test>
To: ${to}

Got it, thanks!

Sent from my iPhone

> On Nov 24, 2026, at 10:00, Acme Shop <${to}> wrote:
>
> Your order has shipped.
`),
};

export const FORWARDED: CorpusMessage = {
  name: 'forwarded mail',
  raw: (to) =>
    crlf(`From: Lee <lee@example.test>
To: ${to}
Subject: Fwd: Contract draft
Date: Wed, 25 Nov 2026 12:00:00 +0000
Message-ID: <fwd-1@example.test>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="FWD"

--FWD
Content-Type: text/plain; charset=utf-8

Please see below.

---------- Forwarded message ---------
From: Legal <legal@example.test>
Date: Tue, Nov 24, 2026
Subject: Contract draft

The draft is attached.

--FWD
Content-Type: message/rfc822

From: Legal <legal@example.test>
Subject: Contract draft
Content-Type: text/plain

The draft is attached.

--FWD--
`),
};

export const EIGHT_BIT_HEADERS: CorpusMessage = {
  name: '8-bit headers',
  raw: (to) =>
    Buffer.concat([
      crlf(`From: "José Müller" <jose@example.test>
To: ${to}
Subject: Grüße aus München – 東京
Date: Wed, 25 Nov 2026 12:00:00 +0000
Message-ID: <8bit@example.test>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

Schöne Grüße!
`),
    ]),
};

export const LATIN1_BODY: CorpusMessage = {
  name: 'ISO-8859-1 body',
  raw: (to) =>
    Buffer.concat([
      crlf(`From: anne@example.test
To: ${to}
Subject: =?ISO-8859-1?Q?Caf=E9?=
Date: Wed, 25 Nov 2026 12:00:00 +0000
Message-ID: <latin1@example.test>
MIME-Version: 1.0
Content-Type: text/plain; charset=iso-8859-1
Content-Transfer-Encoding: 8bit

`),
      Buffer.from('Un caf\xe9 cr\xe8me.\r\n', 'latin1'),
    ]),
};

export const NON_ASCII_ATTACHMENTS: CorpusMessage = {
  name: 'attachments with non-ASCII names',
  raw: (to) =>
    crlf(`From: ops@example.test
To: ${to}
Subject: Files
Date: Wed, 25 Nov 2026 12:00:00 +0000
Message-ID: <files@example.test>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="F"

--F
Content-Type: text/plain

Two files.
--F
Content-Type: text/csv; name="=?UTF-8?B?0L7RgtGH0ZHRgi5jc3Y=?="
Content-Disposition: attachment; filename="=?UTF-8?B?0L7RgtGH0ZHRgi5jc3Y=?="

a,b
1,2
--F
Content-Type: image/jpeg
Content-Disposition: attachment; filename*=UTF-8''%E5%86%99%E7%9C%9F.jpg
Content-Transfer-Encoding: base64

/9j/4AAQSkZJRg==
--F--
`),
};

export const BROKEN_MIME: CorpusMessage = {
  name: 'broken MIME',
  raw: (to) =>
    crlf(`From: broken@example.test
To: ${to}
Subject: Broken
Date: Wed, 25 Nov 2026 12:00:00 +0000
Message-ID: <broken@example.test>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="NEVER-CLOSED"

--NEVER-CLOSED
Content-Type: text/plain; charset=no-such-charset
Content-Transfer-Encoding: base64

SGVsbG8gd29ybGQ=@@@not base64
--NEVER-CLOSED
Content-Type: application/octet-stream
Content-Transfer-Encoding: quoted-printable

=ZZ=0
`),
};

export const NO_HEADERS: CorpusMessage = {
  name: 'no From, Subject or Message-ID, with NUL bytes',
  raw: () => Buffer.concat([crlf('X-Nothing: here\n\nbody with a NUL '), Buffer.from([0]), crlf(' inside\n')]),
};
