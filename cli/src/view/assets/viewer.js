(()=>{var As={LEFT:0,MIDDLE:1,RIGHT:2,ROTATE:0,DOLLY:1,PAN:2},Rs={ROTATE:0,PAN:1,DOLLY_PAN:2,DOLLY_ROTATE:3},Xd=0,ah=1,qd=2;var La=1,$d=2,Fr=3,Cs=0,Fn=1,ki=2,Xs=0,Or=1,oh=2,lh=3,ch=4,Yd=5;var qs=100,Zd=101,Jd=102,Kd=103,jd=104,Qd=200,tf=201,ef=202,nf=203,hh=204,uh=205,sf=206,rf=207,af=208,of=209,lf=210,cf=211,hf=212,uf=213,df=214,Ao=0,Ro=1,Co=2,Ar=3,Po=4,Io=5,Lo=6,Do=7,dh=0,ff=1,pf=2,zi=0,fh=1,ph=2,mh=3,gh=4,_h=5,xh=6,yh=7;var vh=300,$s=301,Br=302,rl=303,al=304,No=1e3,Fi=1001,Uo=1002,bn=1003,mf=1004;var Da=1005;var Un=1006,ol=1007;var is=1008;var ti=1009,Sh=1010,Mh=1011,kr=1012,ll=1013,vi=1014,Si=1015,Mi=1016,cl=1017,hl=1018,Ys=1020,bh=35902,wh=35899,Eh=1021,Th=1022,bi=1023,es=1026,ss=1027,Ah=1028,ul=1029,Ps=1030,dl=1031;var fl=1033,Na=33776,Ua=33777,Fa=33778,Oa=33779,pl=35840,ml=35841,gl=35842,_l=35843,xl=36196,yl=37492,vl=37496,Sl=37488,Ml=37489,Ba=37490,bl=37491,wl=37808,El=37809,Tl=37810,Al=37811,Rl=37812,Cl=37813,Pl=37814,Il=37815,Ll=37816,Dl=37817,Nl=37818,Ul=37819,Fl=37820,Ol=37821,Bl=36492,kl=36494,zl=36495,Vl=36283,Gl=36284,ka=36285,Hl=36286;var ma=2300,Fo=2301,Eo=2302,Qc=2303,th=2400,eh=2401,nh=2402;var gf=3200;var Rh=0,_f=1,rs="",$n="srgb",Vs="srgb-linear",ga="linear",Ee="srgb";var To=7680;var xf=519,yf=512,vf=513,Sf=514,Ch=515,Mf=516,bf=517,Ph=518,Ih=519,wf=35044;var Lh="300 es",oi=2e3,_a=2001;function _g(i){for(let t=i.length-1;t>=0;--t)if(i[t]>=65535)return!0;return!1}function xg(i){return ArrayBuffer.isView(i)&&!(i instanceof DataView)}function xa(i){return document.createElementNS("http://www.w3.org/1999/xhtml",i)}function Ef(){let i=xa("canvas");return i.style.display="block",i}var Sd={},Rr=null;function Dh(...i){let t="THREE."+i.shift();Rr?Rr("log",t,...i):console.log(t,...i)}function Tf(i){let t=i[0];if(typeof t=="string"&&t.startsWith("TSL:")){let e=i[1];e&&e.isStackTrace?i[0]+=" "+e.getLocation():i[1]='Stack trace not available. Enable "THREE.Node.captureStackTrace" to capture stack traces.'}return i}function $t(...i){i=Tf(i);let t="THREE."+i.shift();if(Rr)Rr("warn",t,...i);else{let e=i[0];e&&e.isStackTrace?console.warn(e.getError(t)):console.warn(t,...i)}}function jt(...i){i=Tf(i);let t="THREE."+i.shift();if(Rr)Rr("error",t,...i);else{let e=i[0];e&&e.isStackTrace?console.error(e.getError(t)):console.error(t,...i)}}function da(...i){let t=i.join(" ");t in Sd||(Sd[t]=!0,$t(...i))}function Af(i,t,e){return new Promise(function(n,s){function r(){switch(i.clientWaitSync(t,i.SYNC_FLUSH_COMMANDS_BIT,0)){case i.WAIT_FAILED:s();break;case i.TIMEOUT_EXPIRED:setTimeout(r,e);break;default:n()}}setTimeout(r,e)})}var Rf={[Ao]:Ao,[Co]:Lo,[Po]:Po,[Ar]:Io,[Ro]:Ro,[Lo]:Co,[Do]:Do,[Io]:Ar},yi=class{addEventListener(t,e){this._listeners===void 0&&(this._listeners={});let n=this._listeners;n[t]===void 0&&(n[t]=[]),n[t].indexOf(e)===-1&&n[t].push(e)}hasEventListener(t,e){let n=this._listeners;return n===void 0?!1:n[t]!==void 0&&n[t].indexOf(e)!==-1}removeEventListener(t,e){let n=this._listeners;if(n===void 0)return;let s=n[t];if(s!==void 0){let r=s.indexOf(e);r!==-1&&s.splice(r,1)}}dispatchEvent(t){let e=this._listeners;if(e===void 0)return;let n=e[t.type];if(n!==void 0){t.target=this;let s=n.slice(0);for(let r=0,a=s.length;r<a;r++)s[r].call(this,t);t.target=null}}},Tn=["00","01","02","03","04","05","06","07","08","09","0a","0b","0c","0d","0e","0f","10","11","12","13","14","15","16","17","18","19","1a","1b","1c","1d","1e","1f","20","21","22","23","24","25","26","27","28","29","2a","2b","2c","2d","2e","2f","30","31","32","33","34","35","36","37","38","39","3a","3b","3c","3d","3e","3f","40","41","42","43","44","45","46","47","48","49","4a","4b","4c","4d","4e","4f","50","51","52","53","54","55","56","57","58","59","5a","5b","5c","5d","5e","5f","60","61","62","63","64","65","66","67","68","69","6a","6b","6c","6d","6e","6f","70","71","72","73","74","75","76","77","78","79","7a","7b","7c","7d","7e","7f","80","81","82","83","84","85","86","87","88","89","8a","8b","8c","8d","8e","8f","90","91","92","93","94","95","96","97","98","99","9a","9b","9c","9d","9e","9f","a0","a1","a2","a3","a4","a5","a6","a7","a8","a9","aa","ab","ac","ad","ae","af","b0","b1","b2","b3","b4","b5","b6","b7","b8","b9","ba","bb","bc","bd","be","bf","c0","c1","c2","c3","c4","c5","c6","c7","c8","c9","ca","cb","cc","cd","ce","cf","d0","d1","d2","d3","d4","d5","d6","d7","d8","d9","da","db","dc","dd","de","df","e0","e1","e2","e3","e4","e5","e6","e7","e8","e9","ea","eb","ec","ed","ee","ef","f0","f1","f2","f3","f4","f5","f6","f7","f8","f9","fa","fb","fc","fd","fe","ff"],Md=1234567,fa=Math.PI/180,Cr=180/Math.PI;function zr(){let i=Math.random()*4294967295|0,t=Math.random()*4294967295|0,e=Math.random()*4294967295|0,n=Math.random()*4294967295|0;return(Tn[i&255]+Tn[i>>8&255]+Tn[i>>16&255]+Tn[i>>24&255]+"-"+Tn[t&255]+Tn[t>>8&255]+"-"+Tn[t>>16&15|64]+Tn[t>>24&255]+"-"+Tn[e&63|128]+Tn[e>>8&255]+"-"+Tn[e>>16&255]+Tn[e>>24&255]+Tn[n&255]+Tn[n>>8&255]+Tn[n>>16&255]+Tn[n>>24&255]).toLowerCase()}function fe(i,t,e){return Math.max(t,Math.min(e,i))}function Nh(i,t){return(i%t+t)%t}function yg(i,t,e,n,s){return n+(i-t)*(s-n)/(e-t)}function vg(i,t,e){return i!==t?(e-i)/(t-i):0}function pa(i,t,e){return(1-e)*i+e*t}function Sg(i,t,e,n){return pa(i,t,1-Math.exp(-e*n))}function Mg(i,t=1){return t-Math.abs(Nh(i,t*2)-t)}function bg(i,t,e){return i<=t?0:i>=e?1:(i=(i-t)/(e-t),i*i*(3-2*i))}function wg(i,t,e){return i<=t?0:i>=e?1:(i=(i-t)/(e-t),i*i*i*(i*(i*6-15)+10))}function Eg(i,t){return i+Math.floor(Math.random()*(t-i+1))}function Tg(i,t){return i+Math.random()*(t-i)}function Ag(i){return i*(.5-Math.random())}function Rg(i){i!==void 0&&(Md=i);let t=Md+=1831565813;return t=Math.imul(t^t>>>15,t|1),t^=t+Math.imul(t^t>>>7,t|61),((t^t>>>14)>>>0)/4294967296}function Cg(i){return i*fa}function Pg(i){return i*Cr}function Ig(i){return i>0&&Number.isInteger(i)&&2**Math.round(Math.log2(i))===i}function Lg(i){return Math.pow(2,Math.ceil(Math.log(i)/Math.LN2))}function Uh(i){return Math.pow(2,Math.floor(Math.log(i)/Math.LN2))}function Dg(i,t,e,n,s){let r=Math.cos,a=Math.sin,o=r(e/2),l=a(e/2),c=r((t+n)/2),h=a((t+n)/2),d=r((t-n)/2),u=a((t-n)/2),f=r((n-t)/2),x=a((n-t)/2);switch(s){case"XYX":i.set(o*h,l*d,l*u,o*c);break;case"YZY":i.set(l*u,o*h,l*d,o*c);break;case"ZXZ":i.set(l*d,l*u,o*h,o*c);break;case"XZX":i.set(o*h,l*x,l*f,o*c);break;case"YXY":i.set(l*f,o*h,l*x,o*c);break;case"ZYZ":i.set(l*x,l*f,o*h,o*c);break;default:$t("MathUtils: .setQuaternionFromProperEuler() encountered an unknown order: "+s)}}function Fh(i){switch(i.constructor){case Uint32Array:return 4294967295;case Uint16Array:return 65535;case Uint8Array:case Uint8ClampedArray:return 255;case Int32Array:return 2147483647;case Int16Array:return 32767;case Int8Array:return 127;default:return}}function Cf(i,t){if(t.constructor===Float32Array)return i;let e=Fh(t);if(e===void 0)throw new Error("THREE.MathUtils: Invalid component type.");return Math.max(i/e,-1)}function Pf(i,t){if(t.constructor===Float32Array)return i;let e=Fh(t);if(e===void 0)throw new Error("THREE.MathUtils: Invalid component type.");return Math.round(i*e)}var Oh={DEG2RAD:fa,RAD2DEG:Cr,generateUUID:zr,clamp:fe,euclideanModulo:Nh,mapLinear:yg,inverseLerp:vg,lerp:pa,damp:Sg,pingpong:Mg,smoothstep:bg,smootherstep:wg,randInt:Eg,randFloat:Tg,randFloatSpread:Ag,seededRandom:Rg,degToRad:Cg,radToDeg:Pg,isPowerOfTwo:Ig,ceilPowerOfTwo:Lg,floorPowerOfTwo:Uh,setQuaternionFromProperEuler:Dg,normalize:Pf,denormalize:Cf},Gh=class Gh{constructor(t=0,e=0){this.x=t,this.y=e}get width(){return this.x}set width(t){this.x=t}get height(){return this.y}set height(t){this.y=t}set(t,e){return this.x=t,this.y=e,this}setScalar(t){return this.x=t,this.y=t,this}setX(t){return this.x=t,this}setY(t){return this.y=t,this}setComponent(t,e){switch(t){case 0:this.x=e;break;case 1:this.y=e;break;default:throw new Error("THREE.Vector2: index is out of range: "+t)}return this}getComponent(t){switch(t){case 0:return this.x;case 1:return this.y;default:throw new Error("THREE.Vector2: index is out of range: "+t)}}clone(){return new this.constructor(this.x,this.y)}copy(t){return this.x=t.x,this.y=t.y,this}add(t){return this.x+=t.x,this.y+=t.y,this}addScalar(t){return this.x+=t,this.y+=t,this}addVectors(t,e){return this.x=t.x+e.x,this.y=t.y+e.y,this}addScaledVector(t,e){return this.x+=t.x*e,this.y+=t.y*e,this}sub(t){return this.x-=t.x,this.y-=t.y,this}subScalar(t){return this.x-=t,this.y-=t,this}subVectors(t,e){return this.x=t.x-e.x,this.y=t.y-e.y,this}multiply(t){return this.x*=t.x,this.y*=t.y,this}multiplyScalar(t){return this.x*=t,this.y*=t,this}divide(t){return this.x/=t.x,this.y/=t.y,this}divideScalar(t){return this.multiplyScalar(1/t)}applyMatrix3(t){let e=this.x,n=this.y,s=t.elements;return this.x=s[0]*e+s[3]*n+s[6],this.y=s[1]*e+s[4]*n+s[7],this}min(t){return this.x=Math.min(this.x,t.x),this.y=Math.min(this.y,t.y),this}max(t){return this.x=Math.max(this.x,t.x),this.y=Math.max(this.y,t.y),this}clamp(t,e){return this.x=fe(this.x,t.x,e.x),this.y=fe(this.y,t.y,e.y),this}clampScalar(t,e){return this.x=fe(this.x,t,e),this.y=fe(this.y,t,e),this}clampLength(t,e){let n=this.length();return this.divideScalar(n||1).multiplyScalar(fe(n,t,e))}floor(){return this.x=Math.floor(this.x),this.y=Math.floor(this.y),this}ceil(){return this.x=Math.ceil(this.x),this.y=Math.ceil(this.y),this}round(){return this.x=Math.round(this.x),this.y=Math.round(this.y),this}roundToZero(){return this.x=Math.trunc(this.x),this.y=Math.trunc(this.y),this}negate(){return this.x=-this.x,this.y=-this.y,this}dot(t){return this.x*t.x+this.y*t.y}cross(t){return this.x*t.y-this.y*t.x}lengthSq(){return this.x*this.x+this.y*this.y}length(){return Math.sqrt(this.x*this.x+this.y*this.y)}manhattanLength(){return Math.abs(this.x)+Math.abs(this.y)}normalize(){return this.divideScalar(this.length()||1)}angle(){return Math.atan2(-this.y,-this.x)+Math.PI}angleTo(t){let e=Math.sqrt(this.lengthSq()*t.lengthSq());if(e===0)return Math.PI/2;let n=this.dot(t)/e;return Math.acos(fe(n,-1,1))}distanceTo(t){return Math.sqrt(this.distanceToSquared(t))}distanceToSquared(t){let e=this.x-t.x,n=this.y-t.y;return e*e+n*n}manhattanDistanceTo(t){return Math.abs(this.x-t.x)+Math.abs(this.y-t.y)}setLength(t){return this.normalize().multiplyScalar(t)}lerp(t,e){return this.x+=(t.x-this.x)*e,this.y+=(t.y-this.y)*e,this}lerpVectors(t,e,n){return this.x=t.x+(e.x-t.x)*n,this.y=t.y+(e.y-t.y)*n,this}equals(t){return t.x===this.x&&t.y===this.y}fromArray(t,e=0){return this.x=t[e],this.y=t[e+1],this}toArray(t=[],e=0){return t[e]=this.x,t[e+1]=this.y,t}fromBufferAttribute(t,e){return this.x=t.getX(e),this.y=t.getY(e),this}rotateAround(t,e){let n=Math.cos(e),s=Math.sin(e),r=this.x-t.x,a=this.y-t.y;return this.x=r*n-a*s+t.x,this.y=r*s+a*n+t.y,this}random(){return this.x=Math.random(),this.y=Math.random(),this}*[Symbol.iterator](){yield this.x,yield this.y}};Gh.prototype.isVector2=!0;var re=Gh,Jn=class{constructor(t=0,e=0,n=0,s=1){this.isQuaternion=!0,this._x=t,this._y=e,this._z=n,this._w=s}static slerpFlat(t,e,n,s,r,a,o){let l=n[s+0],c=n[s+1],h=n[s+2],d=n[s+3],u=r[a+0],f=r[a+1],x=r[a+2],w=r[a+3];if(d!==w||l!==u||c!==f||h!==x){let m=l*u+c*f+h*x+d*w;m<0&&(u=-u,f=-f,x=-x,w=-w,m=-m);let p=1-o;if(m<.9995){let M=Math.acos(m),C=Math.sin(M);p=Math.sin(p*M)/C,o=Math.sin(o*M)/C,l=l*p+u*o,c=c*p+f*o,h=h*p+x*o,d=d*p+w*o}else{l=l*p+u*o,c=c*p+f*o,h=h*p+x*o,d=d*p+w*o;let M=1/Math.sqrt(l*l+c*c+h*h+d*d);l*=M,c*=M,h*=M,d*=M}}t[e]=l,t[e+1]=c,t[e+2]=h,t[e+3]=d}static multiplyQuaternionsFlat(t,e,n,s,r,a){let o=n[s],l=n[s+1],c=n[s+2],h=n[s+3],d=r[a],u=r[a+1],f=r[a+2],x=r[a+3];return t[e]=o*x+h*d+l*f-c*u,t[e+1]=l*x+h*u+c*d-o*f,t[e+2]=c*x+h*f+o*u-l*d,t[e+3]=h*x-o*d-l*u-c*f,t}get x(){return this._x}set x(t){this._x=t,this._onChangeCallback()}get y(){return this._y}set y(t){this._y=t,this._onChangeCallback()}get z(){return this._z}set z(t){this._z=t,this._onChangeCallback()}get w(){return this._w}set w(t){this._w=t,this._onChangeCallback()}set(t,e,n,s){return this._x=t,this._y=e,this._z=n,this._w=s,this._onChangeCallback(),this}clone(){return new this.constructor(this._x,this._y,this._z,this._w)}copy(t){return this._x=t.x,this._y=t.y,this._z=t.z,this._w=t.w,this._onChangeCallback(),this}setFromEuler(t,e=!0){let n=t._x,s=t._y,r=t._z,a=t._order,o=Math.cos,l=Math.sin,c=o(n/2),h=o(s/2),d=o(r/2),u=l(n/2),f=l(s/2),x=l(r/2);switch(a){case"XYZ":this._x=u*h*d+c*f*x,this._y=c*f*d-u*h*x,this._z=c*h*x+u*f*d,this._w=c*h*d-u*f*x;break;case"YXZ":this._x=u*h*d+c*f*x,this._y=c*f*d-u*h*x,this._z=c*h*x-u*f*d,this._w=c*h*d+u*f*x;break;case"ZXY":this._x=u*h*d-c*f*x,this._y=c*f*d+u*h*x,this._z=c*h*x+u*f*d,this._w=c*h*d-u*f*x;break;case"ZYX":this._x=u*h*d-c*f*x,this._y=c*f*d+u*h*x,this._z=c*h*x-u*f*d,this._w=c*h*d+u*f*x;break;case"YZX":this._x=u*h*d+c*f*x,this._y=c*f*d+u*h*x,this._z=c*h*x-u*f*d,this._w=c*h*d-u*f*x;break;case"XZY":this._x=u*h*d-c*f*x,this._y=c*f*d-u*h*x,this._z=c*h*x+u*f*d,this._w=c*h*d+u*f*x;break;default:$t("Quaternion: .setFromEuler() encountered an unknown order: "+a)}return e===!0&&this._onChangeCallback(),this}setFromAxisAngle(t,e){let n=e/2,s=Math.sin(n);return this._x=t.x*s,this._y=t.y*s,this._z=t.z*s,this._w=Math.cos(n),this._onChangeCallback(),this}setFromRotationMatrix(t){let e=t.elements,n=e[0],s=e[4],r=e[8],a=e[1],o=e[5],l=e[9],c=e[2],h=e[6],d=e[10],u=n+o+d;if(u>0){let f=.5/Math.sqrt(u+1);this._w=.25/f,this._x=(h-l)*f,this._y=(r-c)*f,this._z=(a-s)*f}else if(n>o&&n>d){let f=2*Math.sqrt(1+n-o-d);this._w=(h-l)/f,this._x=.25*f,this._y=(s+a)/f,this._z=(r+c)/f}else if(o>d){let f=2*Math.sqrt(1+o-n-d);this._w=(r-c)/f,this._x=(s+a)/f,this._y=.25*f,this._z=(l+h)/f}else{let f=2*Math.sqrt(1+d-n-o);this._w=(a-s)/f,this._x=(r+c)/f,this._y=(l+h)/f,this._z=.25*f}return this._onChangeCallback(),this}setFromUnitVectors(t,e){let n=t.dot(e)+1;return n<1e-8?(n=0,Math.abs(t.x)>Math.abs(t.z)?(this._x=-t.y,this._y=t.x,this._z=0,this._w=n):(this._x=0,this._y=-t.z,this._z=t.y,this._w=n)):(this._x=t.y*e.z-t.z*e.y,this._y=t.z*e.x-t.x*e.z,this._z=t.x*e.y-t.y*e.x,this._w=n),this.normalize()}angleTo(t){return 2*Math.acos(Math.abs(fe(this.dot(t),-1,1)))}rotateTowards(t,e){let n=this.angleTo(t);if(n===0)return this;let s=Math.min(1,e/n);return this.slerp(t,s),this}identity(){return this.set(0,0,0,1)}invert(){return this.conjugate()}conjugate(){return this._x*=-1,this._y*=-1,this._z*=-1,this._onChangeCallback(),this}dot(t){return this._x*t._x+this._y*t._y+this._z*t._z+this._w*t._w}lengthSq(){return this._x*this._x+this._y*this._y+this._z*this._z+this._w*this._w}length(){return Math.sqrt(this._x*this._x+this._y*this._y+this._z*this._z+this._w*this._w)}normalize(){let t=this.length();return t===0?(this._x=0,this._y=0,this._z=0,this._w=1):(t=1/t,this._x=this._x*t,this._y=this._y*t,this._z=this._z*t,this._w=this._w*t),this._onChangeCallback(),this}multiply(t){return this.multiplyQuaternions(this,t)}premultiply(t){return this.multiplyQuaternions(t,this)}multiplyQuaternions(t,e){let n=t._x,s=t._y,r=t._z,a=t._w,o=e._x,l=e._y,c=e._z,h=e._w;return this._x=n*h+a*o+s*c-r*l,this._y=s*h+a*l+r*o-n*c,this._z=r*h+a*c+n*l-s*o,this._w=a*h-n*o-s*l-r*c,this._onChangeCallback(),this}slerp(t,e){let n=t._x,s=t._y,r=t._z,a=t._w,o=this.dot(t);o<0&&(n=-n,s=-s,r=-r,a=-a,o=-o);let l=1-e;if(o<.9995){let c=Math.acos(o),h=Math.sin(c);l=Math.sin(l*c)/h,e=Math.sin(e*c)/h,this._x=this._x*l+n*e,this._y=this._y*l+s*e,this._z=this._z*l+r*e,this._w=this._w*l+a*e,this._onChangeCallback()}else this._x=this._x*l+n*e,this._y=this._y*l+s*e,this._z=this._z*l+r*e,this._w=this._w*l+a*e,this.normalize();return this}slerpQuaternions(t,e,n){return this.copy(t).slerp(e,n)}random(){let t=2*Math.PI*Math.random(),e=2*Math.PI*Math.random(),n=Math.random(),s=Math.sqrt(1-n),r=Math.sqrt(n);return this.set(s*Math.sin(t),s*Math.cos(t),r*Math.sin(e),r*Math.cos(e))}equals(t){return t._x===this._x&&t._y===this._y&&t._z===this._z&&t._w===this._w}fromArray(t,e=0){return this._x=t[e],this._y=t[e+1],this._z=t[e+2],this._w=t[e+3],this._onChangeCallback(),this}toArray(t=[],e=0){return t[e]=this._x,t[e+1]=this._y,t[e+2]=this._z,t[e+3]=this._w,t}fromBufferAttribute(t,e){return this._x=t.getX(e),this._y=t.getY(e),this._z=t.getZ(e),this._w=t.getW(e),this._onChangeCallback(),this}toJSON(){return this.toArray()}_onChange(t){return this._onChangeCallback=t,this}_onChangeCallback(){}*[Symbol.iterator](){yield this._x,yield this._y,yield this._z,yield this._w}},Hh=class Hh{constructor(t=0,e=0,n=0){this.x=t,this.y=e,this.z=n}set(t,e,n){return n===void 0&&(n=this.z),this.x=t,this.y=e,this.z=n,this}setScalar(t){return this.x=t,this.y=t,this.z=t,this}setX(t){return this.x=t,this}setY(t){return this.y=t,this}setZ(t){return this.z=t,this}setComponent(t,e){switch(t){case 0:this.x=e;break;case 1:this.y=e;break;case 2:this.z=e;break;default:throw new Error("THREE.Vector3: index is out of range: "+t)}return this}getComponent(t){switch(t){case 0:return this.x;case 1:return this.y;case 2:return this.z;default:throw new Error("THREE.Vector3: index is out of range: "+t)}}clone(){return new this.constructor(this.x,this.y,this.z)}copy(t){return this.x=t.x,this.y=t.y,this.z=t.z,this}add(t){return this.x+=t.x,this.y+=t.y,this.z+=t.z,this}addScalar(t){return this.x+=t,this.y+=t,this.z+=t,this}addVectors(t,e){return this.x=t.x+e.x,this.y=t.y+e.y,this.z=t.z+e.z,this}addScaledVector(t,e){return this.x+=t.x*e,this.y+=t.y*e,this.z+=t.z*e,this}sub(t){return this.x-=t.x,this.y-=t.y,this.z-=t.z,this}subScalar(t){return this.x-=t,this.y-=t,this.z-=t,this}subVectors(t,e){return this.x=t.x-e.x,this.y=t.y-e.y,this.z=t.z-e.z,this}multiply(t){return this.x*=t.x,this.y*=t.y,this.z*=t.z,this}multiplyScalar(t){return this.x*=t,this.y*=t,this.z*=t,this}multiplyVectors(t,e){return this.x=t.x*e.x,this.y=t.y*e.y,this.z=t.z*e.z,this}applyEuler(t){return this.applyQuaternion(bd.setFromEuler(t))}applyAxisAngle(t,e){return this.applyQuaternion(bd.setFromAxisAngle(t,e))}applyMatrix3(t){let e=this.x,n=this.y,s=this.z,r=t.elements;return this.x=r[0]*e+r[3]*n+r[6]*s,this.y=r[1]*e+r[4]*n+r[7]*s,this.z=r[2]*e+r[5]*n+r[8]*s,this}applyNormalMatrix(t){return this.applyMatrix3(t).normalize()}applyMatrix4(t){let e=this.x,n=this.y,s=this.z,r=t.elements,a=1/(r[3]*e+r[7]*n+r[11]*s+r[15]);return this.x=(r[0]*e+r[4]*n+r[8]*s+r[12])*a,this.y=(r[1]*e+r[5]*n+r[9]*s+r[13])*a,this.z=(r[2]*e+r[6]*n+r[10]*s+r[14])*a,this}applyQuaternion(t){let e=this.x,n=this.y,s=this.z,r=t.x,a=t.y,o=t.z,l=t.w,c=2*(a*s-o*n),h=2*(o*e-r*s),d=2*(r*n-a*e);return this.x=e+l*c+a*d-o*h,this.y=n+l*h+o*c-r*d,this.z=s+l*d+r*h-a*c,this}project(t){return this.applyMatrix4(t.matrixWorldInverse).applyMatrix4(t.projectionMatrix)}unproject(t){return this.applyMatrix4(t.projectionMatrixInverse).applyMatrix4(t.matrixWorld)}transformDirection(t){let e=this.x,n=this.y,s=this.z,r=t.elements;return this.x=r[0]*e+r[4]*n+r[8]*s,this.y=r[1]*e+r[5]*n+r[9]*s,this.z=r[2]*e+r[6]*n+r[10]*s,this.normalize()}divide(t){return this.x/=t.x,this.y/=t.y,this.z/=t.z,this}divideScalar(t){return this.multiplyScalar(1/t)}min(t){return this.x=Math.min(this.x,t.x),this.y=Math.min(this.y,t.y),this.z=Math.min(this.z,t.z),this}max(t){return this.x=Math.max(this.x,t.x),this.y=Math.max(this.y,t.y),this.z=Math.max(this.z,t.z),this}clamp(t,e){return this.x=fe(this.x,t.x,e.x),this.y=fe(this.y,t.y,e.y),this.z=fe(this.z,t.z,e.z),this}clampScalar(t,e){return this.x=fe(this.x,t,e),this.y=fe(this.y,t,e),this.z=fe(this.z,t,e),this}clampLength(t,e){let n=this.length();return this.divideScalar(n||1).multiplyScalar(fe(n,t,e))}floor(){return this.x=Math.floor(this.x),this.y=Math.floor(this.y),this.z=Math.floor(this.z),this}ceil(){return this.x=Math.ceil(this.x),this.y=Math.ceil(this.y),this.z=Math.ceil(this.z),this}round(){return this.x=Math.round(this.x),this.y=Math.round(this.y),this.z=Math.round(this.z),this}roundToZero(){return this.x=Math.trunc(this.x),this.y=Math.trunc(this.y),this.z=Math.trunc(this.z),this}negate(){return this.x=-this.x,this.y=-this.y,this.z=-this.z,this}dot(t){return this.x*t.x+this.y*t.y+this.z*t.z}lengthSq(){return this.x*this.x+this.y*this.y+this.z*this.z}length(){return Math.sqrt(this.x*this.x+this.y*this.y+this.z*this.z)}manhattanLength(){return Math.abs(this.x)+Math.abs(this.y)+Math.abs(this.z)}normalize(){return this.divideScalar(this.length()||1)}setLength(t){return this.normalize().multiplyScalar(t)}lerp(t,e){return this.x+=(t.x-this.x)*e,this.y+=(t.y-this.y)*e,this.z+=(t.z-this.z)*e,this}lerpVectors(t,e,n){return this.x=t.x+(e.x-t.x)*n,this.y=t.y+(e.y-t.y)*n,this.z=t.z+(e.z-t.z)*n,this}cross(t){return this.crossVectors(this,t)}crossVectors(t,e){let n=t.x,s=t.y,r=t.z,a=e.x,o=e.y,l=e.z;return this.x=s*l-r*o,this.y=r*a-n*l,this.z=n*o-s*a,this}projectOnVector(t){let e=t.lengthSq();if(e===0)return this.set(0,0,0);let n=t.dot(this)/e;return this.copy(t).multiplyScalar(n)}projectOnPlane(t){return Nc.copy(this).projectOnVector(t),this.sub(Nc)}reflect(t){return this.sub(Nc.copy(t).multiplyScalar(2*this.dot(t)))}angleTo(t){let e=Math.sqrt(this.lengthSq()*t.lengthSq());if(e===0)return Math.PI/2;let n=this.dot(t)/e;return Math.acos(fe(n,-1,1))}distanceTo(t){return Math.sqrt(this.distanceToSquared(t))}distanceToSquared(t){let e=this.x-t.x,n=this.y-t.y,s=this.z-t.z;return e*e+n*n+s*s}manhattanDistanceTo(t){return Math.abs(this.x-t.x)+Math.abs(this.y-t.y)+Math.abs(this.z-t.z)}setFromSpherical(t){return this.setFromSphericalCoords(t.radius,t.phi,t.theta)}setFromSphericalCoords(t,e,n){let s=Math.sin(e)*t;return this.x=s*Math.sin(n),this.y=Math.cos(e)*t,this.z=s*Math.cos(n),this}setFromCylindrical(t){return this.setFromCylindricalCoords(t.radius,t.theta,t.y)}setFromCylindricalCoords(t,e,n){return this.x=t*Math.sin(e),this.y=n,this.z=t*Math.cos(e),this}setFromMatrixPosition(t){let e=t.elements;return this.x=e[12],this.y=e[13],this.z=e[14],this}setFromMatrixScale(t){let e=this.setFromMatrixColumn(t,0).length(),n=this.setFromMatrixColumn(t,1).length(),s=this.setFromMatrixColumn(t,2).length();return this.x=e,this.y=n,this.z=s,this}setFromMatrixColumn(t,e){return this.fromArray(t.elements,e*4)}setFromMatrix3Column(t,e){return this.fromArray(t.elements,e*3)}setFromEuler(t){return this.x=t._x,this.y=t._y,this.z=t._z,this}setFromColor(t){return this.x=t.r,this.y=t.g,this.z=t.b,this}equals(t){return t.x===this.x&&t.y===this.y&&t.z===this.z}fromArray(t,e=0){return this.x=t[e],this.y=t[e+1],this.z=t[e+2],this}toArray(t=[],e=0){return t[e]=this.x,t[e+1]=this.y,t[e+2]=this.z,t}fromBufferAttribute(t,e){return this.x=t.getX(e),this.y=t.getY(e),this.z=t.getZ(e),this}random(){return this.x=Math.random(),this.y=Math.random(),this.z=Math.random(),this}randomDirection(){let t=Math.random()*Math.PI*2,e=Math.random()*2-1,n=Math.sqrt(1-e*e);return this.x=n*Math.cos(t),this.y=e,this.z=n*Math.sin(t),this}*[Symbol.iterator](){yield this.x,yield this.y,yield this.z}};Hh.prototype.isVector3=!0;var J=Hh,Nc=new J,bd=new Jn,Wh=class Wh{constructor(t,e,n,s,r,a,o,l,c){this.elements=[1,0,0,0,1,0,0,0,1],t!==void 0&&this.set(t,e,n,s,r,a,o,l,c)}set(t,e,n,s,r,a,o,l,c){let h=this.elements;return h[0]=t,h[1]=s,h[2]=o,h[3]=e,h[4]=r,h[5]=l,h[6]=n,h[7]=a,h[8]=c,this}identity(){return this.set(1,0,0,0,1,0,0,0,1),this}copy(t){let e=this.elements,n=t.elements;return e[0]=n[0],e[1]=n[1],e[2]=n[2],e[3]=n[3],e[4]=n[4],e[5]=n[5],e[6]=n[6],e[7]=n[7],e[8]=n[8],this}extractBasis(t,e,n){return t.setFromMatrix3Column(this,0),e.setFromMatrix3Column(this,1),n.setFromMatrix3Column(this,2),this}setFromMatrix4(t){let e=t.elements;return this.set(e[0],e[4],e[8],e[1],e[5],e[9],e[2],e[6],e[10]),this}multiply(t){return this.multiplyMatrices(this,t)}premultiply(t){return this.multiplyMatrices(t,this)}multiplyMatrices(t,e){let n=t.elements,s=e.elements,r=this.elements,a=n[0],o=n[3],l=n[6],c=n[1],h=n[4],d=n[7],u=n[2],f=n[5],x=n[8],w=s[0],m=s[3],p=s[6],M=s[1],C=s[4],b=s[7],I=s[2],T=s[5],_=s[8];return r[0]=a*w+o*M+l*I,r[3]=a*m+o*C+l*T,r[6]=a*p+o*b+l*_,r[1]=c*w+h*M+d*I,r[4]=c*m+h*C+d*T,r[7]=c*p+h*b+d*_,r[2]=u*w+f*M+x*I,r[5]=u*m+f*C+x*T,r[8]=u*p+f*b+x*_,this}multiplyScalar(t){let e=this.elements;return e[0]*=t,e[3]*=t,e[6]*=t,e[1]*=t,e[4]*=t,e[7]*=t,e[2]*=t,e[5]*=t,e[8]*=t,this}determinant(){let t=this.elements,e=t[0],n=t[1],s=t[2],r=t[3],a=t[4],o=t[5],l=t[6],c=t[7],h=t[8];return e*a*h-e*o*c-n*r*h+n*o*l+s*r*c-s*a*l}invert(){let t=this.elements,e=t[0],n=t[1],s=t[2],r=t[3],a=t[4],o=t[5],l=t[6],c=t[7],h=t[8],d=h*a-o*c,u=o*l-h*r,f=c*r-a*l,x=e*d+n*u+s*f;if(x===0)return this.set(0,0,0,0,0,0,0,0,0);let w=1/x;return t[0]=d*w,t[1]=(s*c-h*n)*w,t[2]=(o*n-s*a)*w,t[3]=u*w,t[4]=(h*e-s*l)*w,t[5]=(s*r-o*e)*w,t[6]=f*w,t[7]=(n*l-c*e)*w,t[8]=(a*e-n*r)*w,this}transpose(){let t,e=this.elements;return t=e[1],e[1]=e[3],e[3]=t,t=e[2],e[2]=e[6],e[6]=t,t=e[5],e[5]=e[7],e[7]=t,this}getNormalMatrix(t){return this.setFromMatrix4(t).invert().transpose()}transposeIntoArray(t){let e=this.elements;return t[0]=e[0],t[1]=e[3],t[2]=e[6],t[3]=e[1],t[4]=e[4],t[5]=e[7],t[6]=e[2],t[7]=e[5],t[8]=e[8],this}setUvTransform(t,e,n,s,r,a,o){let l=Math.cos(r),c=Math.sin(r);return this.set(n*l,n*c,-n*(l*a+c*o)+a+t,-s*c,s*l,-s*(-c*a+l*o)+o+e,0,0,1),this}scale(t,e){return da("Matrix3: .scale() is deprecated. Use .makeScale() instead."),this.premultiply(Uc.makeScale(t,e)),this}rotate(t){return da("Matrix3: .rotate() is deprecated. Use .makeRotation() instead."),this.premultiply(Uc.makeRotation(-t)),this}translate(t,e){return da("Matrix3: .translate() is deprecated. Use .makeTranslation() instead."),this.premultiply(Uc.makeTranslation(t,e)),this}makeTranslation(t,e){return t.isVector2?this.set(1,0,t.x,0,1,t.y,0,0,1):this.set(1,0,t,0,1,e,0,0,1),this}makeRotation(t){let e=Math.cos(t),n=Math.sin(t);return this.set(e,-n,0,n,e,0,0,0,1),this}makeScale(t,e){return this.set(t,0,0,0,e,0,0,0,1),this}equals(t){let e=this.elements,n=t.elements;for(let s=0;s<9;s++)if(e[s]!==n[s])return!1;return!0}fromArray(t,e=0){for(let n=0;n<9;n++)this.elements[n]=t[n+e];return this}toArray(t=[],e=0){let n=this.elements;return t[e]=n[0],t[e+1]=n[1],t[e+2]=n[2],t[e+3]=n[3],t[e+4]=n[4],t[e+5]=n[5],t[e+6]=n[6],t[e+7]=n[7],t[e+8]=n[8],t}clone(){return new this.constructor().fromArray(this.elements)}};Wh.prototype.isMatrix3=!0;var Qt=Wh,Uc=new Qt,wd=new Qt().set(.4123908,.3575843,.1804808,.212639,.7151687,.0721923,.0193308,.1191948,.9505322),Ed=new Qt().set(3.2409699,-1.5373832,-.4986108,-.9692436,1.8759675,.0415551,.0556301,-.203977,1.0569715);function Ng(){let i={enabled:!0,workingColorSpace:Vs,spaces:{},convert:function(s,r,a){return this.enabled===!1||r===a||!r||!a||(this.spaces[r].transfer===Ee&&(s.r=ts(s.r),s.g=ts(s.g),s.b=ts(s.b)),this.spaces[r].primaries!==this.spaces[a].primaries&&(s.applyMatrix3(this.spaces[r].toXYZ),s.applyMatrix3(this.spaces[a].fromXYZ)),this.spaces[a].transfer===Ee&&(s.r=Tr(s.r),s.g=Tr(s.g),s.b=Tr(s.b))),s},workingToColorSpace:function(s,r){return this.convert(s,this.workingColorSpace,r)},colorSpaceToWorking:function(s,r){return this.convert(s,r,this.workingColorSpace)},getPrimaries:function(s){return this.spaces[s].primaries},getTransfer:function(s){return s===rs?ga:this.spaces[s].transfer},getToneMappingMode:function(s){return this.spaces[s].outputColorSpaceConfig.toneMappingMode||"standard"},getLuminanceCoefficients:function(s,r=this.workingColorSpace){return s.fromArray(this.spaces[r].luminanceCoefficients)},define:function(s){Object.assign(this.spaces,s)},_getMatrix:function(s,r,a){return s.copy(this.spaces[a].fromXYZ).multiply(this.spaces[r].toXYZ)},_getDrawingBufferColorSpace:function(s){return this.spaces[s].outputColorSpaceConfig.drawingBufferColorSpace},_getUnpackColorSpace:function(s=this.workingColorSpace){return this.spaces[s].workingColorSpaceConfig.unpackColorSpace}},t=[.64,.33,.3,.6,.15,.06],e=[.2126,.7152,.0722],n=[.3127,.329];return i.define({[Vs]:{primaries:t,whitePoint:n,transfer:ga,toXYZ:wd,fromXYZ:Ed,luminanceCoefficients:e,workingColorSpaceConfig:{unpackColorSpace:$n},outputColorSpaceConfig:{drawingBufferColorSpace:$n}},[$n]:{primaries:t,whitePoint:n,transfer:Ee,toXYZ:wd,fromXYZ:Ed,luminanceCoefficients:e,outputColorSpaceConfig:{drawingBufferColorSpace:$n}}}),i}var ge=Ng();function ts(i){return i<.04045?i*.0773993808:Math.pow(i*.9478672986+.0521327014,2.4)}function Tr(i){return i<.0031308?i*12.92:1.055*Math.pow(i,.41666)-.055}var fr,Oo=class{static getDataURL(t,e="image/png"){if(/^data:/i.test(t.src)||typeof HTMLCanvasElement>"u")return t.src;let n;if(t instanceof HTMLCanvasElement)n=t;else{fr===void 0&&(fr=xa("canvas")),fr.width=t.width,fr.height=t.height;let s=fr.getContext("2d");t instanceof ImageData?s.putImageData(t,0,0):s.drawImage(t,0,0,t.width,t.height),n=fr}return n.toDataURL(e)}static sRGBToLinear(t){if(typeof HTMLImageElement<"u"&&t instanceof HTMLImageElement||typeof HTMLCanvasElement<"u"&&t instanceof HTMLCanvasElement||typeof ImageBitmap<"u"&&t instanceof ImageBitmap){let e=xa("canvas");e.width=t.width,e.height=t.height;let n=e.getContext("2d");n.drawImage(t,0,0,t.width,t.height);let s=n.getImageData(0,0,t.width,t.height),r=s.data;for(let a=0;a<r.length;a++)r[a]=ts(r[a]/255)*255;return n.putImageData(s,0,0),e}else if(t.data){let e=t.data.slice(0);for(let n=0;n<e.length;n++)e instanceof Uint8Array||e instanceof Uint8ClampedArray?e[n]=Math.floor(ts(e[n]/255)*255):e[n]=ts(e[n]);return{data:e,width:t.width,height:t.height}}else return $t("ImageUtils.sRGBToLinear(): Unsupported image type. No color space conversion applied."),t}},Ug=0,Pr=class{constructor(t=null){this.isTextureSource=!0,Object.defineProperty(this,"id",{value:Ug++}),this.uuid=zr(),this.data=t,this.dataReady=!0,this.version=0}getSize(t){let e=this.data;return typeof HTMLVideoElement<"u"&&e instanceof HTMLVideoElement?t.set(e.videoWidth,e.videoHeight,0):typeof VideoFrame<"u"&&e instanceof VideoFrame?t.set(e.displayWidth,e.displayHeight,0):e!==null?t.set(e.width||0,e.height||0,e.depth||0):t.set(0,0,0),t}set needsUpdate(t){t===!0&&this.version++}toJSON(t){let e=t===void 0||typeof t=="string";if(!e&&t.images[this.uuid]!==void 0)return t.images[this.uuid];let n={uuid:this.uuid,url:""},s=this.data;if(s!==null){let r;if(Array.isArray(s)){r=[];for(let a=0,o=s.length;a<o;a++)s[a].isDataTexture?r.push(Fc(s[a].image)):r.push(Fc(s[a]))}else r=Fc(s);n.url=r}return e||(t.images[this.uuid]=n),n}};function Fc(i){return typeof HTMLImageElement<"u"&&i instanceof HTMLImageElement||typeof HTMLCanvasElement<"u"&&i instanceof HTMLCanvasElement||typeof ImageBitmap<"u"&&i instanceof ImageBitmap?Oo.getDataURL(i):i.data?{data:Array.from(i.data),width:i.width,height:i.height,type:i.data.constructor.name}:($t("Texture: Unable to serialize Texture."),{})}var Fg=0,Oc=new J,Bn=class i extends yi{constructor(t=i.DEFAULT_IMAGE,e=i.DEFAULT_MAPPING,n=Fi,s=Fi,r=Un,a=is,o=bi,l=ti,c=i.DEFAULT_ANISOTROPY,h=rs){super(),this.isTexture=!0,Object.defineProperty(this,"id",{value:Fg++}),this.uuid=zr(),this.name="",this.source=new Pr(t),this.mipmaps=[],this.mapping=e,this.channel=0,this.wrapS=n,this.wrapT=s,this.magFilter=r,this.minFilter=a,this.anisotropy=c,this.format=o,this.internalFormat=null,this.type=l,this.offset=new re(0,0),this.repeat=new re(1,1),this.center=new re(0,0),this.rotation=0,this.matrixAutoUpdate=!0,this.matrix=new Qt,this.generateMipmaps=!0,this.mipmapsAutoUpdate=!0,this.premultiplyAlpha=!1,this.flipY=!0,this.unpackAlignment=4,this.colorSpace=h,this.userData={},this.updateRanges=[],this.version=0,this.onUpdate=null,this.renderTarget=null,this.isRenderTargetTexture=!1,this.isArrayTexture=!!(t&&t.depth&&t.depth>1),this.pmremVersion=0,this.isPMREMTexture=!1,this.normalized=!1}get width(){return this.source.getSize(Oc).x}get height(){return this.source.getSize(Oc).y}get depth(){return this.source.getSize(Oc).z}get image(){return this.source.data}set image(t){this.source.data=t}updateMatrix(){this.matrix.setUvTransform(this.offset.x,this.offset.y,this.repeat.x,this.repeat.y,this.rotation,this.center.x,this.center.y)}addUpdateRange(t,e){this.updateRanges.push({start:t,count:e})}clearUpdateRanges(){this.updateRanges.length=0}clone(){return new this.constructor().copy(this)}copy(t){return this.name=t.name,this.source=t.source,this.mipmaps=t.mipmaps.slice(0),this.mapping=t.mapping,this.channel=t.channel,this.wrapS=t.wrapS,this.wrapT=t.wrapT,this.magFilter=t.magFilter,this.minFilter=t.minFilter,this.anisotropy=t.anisotropy,this.format=t.format,this.internalFormat=t.internalFormat,this.type=t.type,this.normalized=t.normalized,this.offset.copy(t.offset),this.repeat.copy(t.repeat),this.center.copy(t.center),this.rotation=t.rotation,this.matrixAutoUpdate=t.matrixAutoUpdate,this.matrix.copy(t.matrix),this.generateMipmaps=t.generateMipmaps,this.mipmapsAutoUpdate=t.mipmapsAutoUpdate,this.premultiplyAlpha=t.premultiplyAlpha,this.flipY=t.flipY,this.unpackAlignment=t.unpackAlignment,this.colorSpace=t.colorSpace,this.renderTarget=t.renderTarget,this.isRenderTargetTexture=t.isRenderTargetTexture,this.isPMREMTexture=t.isPMREMTexture,this.isArrayTexture=t.isArrayTexture,this.userData=JSON.parse(JSON.stringify(t.userData)),this.needsUpdate=!0,this}setValues(t){for(let e in t){let n=t[e];if(n===void 0){$t(`Texture.setValues(): parameter '${e}' has value of undefined.`);continue}let s=this[e];if(s===void 0){$t(`Texture.setValues(): property '${e}' does not exist.`);continue}s&&n&&s.isVector2&&n.isVector2||s&&n&&s.isVector3&&n.isVector3||s&&n&&s.isMatrix3&&n.isMatrix3?s.copy(n):this[e]=n}}toJSON(t){let e=t===void 0||typeof t=="string";if(!e&&t.textures[this.uuid]!==void 0)return t.textures[this.uuid];let n={metadata:{version:4.7,type:"Texture",generator:"Texture.toJSON"},uuid:this.uuid,name:this.name,image:this.source.toJSON(t).uuid,mapping:this.mapping,channel:this.channel,repeat:[this.repeat.x,this.repeat.y],offset:[this.offset.x,this.offset.y],center:[this.center.x,this.center.y],rotation:this.rotation,wrap:[this.wrapS,this.wrapT],format:this.format,internalFormat:this.internalFormat,type:this.type,normalized:this.normalized,colorSpace:this.colorSpace,minFilter:this.minFilter,magFilter:this.magFilter,anisotropy:this.anisotropy,flipY:this.flipY,generateMipmaps:this.generateMipmaps,mipmapsAutoUpdate:this.mipmapsAutoUpdate,premultiplyAlpha:this.premultiplyAlpha,unpackAlignment:this.unpackAlignment};return Object.keys(this.userData).length>0&&(n.userData=this.userData),e||(t.textures[this.uuid]=n),n}dispose(){this.dispatchEvent({type:"dispose"})}transformUv(t){if(this.mapping!==vh)return t;if(t.applyMatrix3(this.matrix),t.x<0||t.x>1)switch(this.wrapS){case No:t.x=t.x-Math.floor(t.x);break;case Fi:t.x=t.x<0?0:1;break;case Uo:Math.abs(Math.floor(t.x)%2)===1?t.x=Math.ceil(t.x)-t.x:t.x=t.x-Math.floor(t.x);break}if(t.y<0||t.y>1)switch(this.wrapT){case No:t.y=t.y-Math.floor(t.y);break;case Fi:t.y=t.y<0?0:1;break;case Uo:Math.abs(Math.floor(t.y)%2)===1?t.y=Math.ceil(t.y)-t.y:t.y=t.y-Math.floor(t.y);break}return this.flipY&&(t.y=1-t.y),t}set needsUpdate(t){t===!0&&(this.version++,this.source.needsUpdate=!0)}set needsPMREMUpdate(t){t===!0&&this.pmremVersion++}};Bn.DEFAULT_IMAGE=null;Bn.DEFAULT_MAPPING=vh;Bn.DEFAULT_ANISOTROPY=1;var Xh=class Xh{constructor(t=0,e=0,n=0,s=1){this.x=t,this.y=e,this.z=n,this.w=s}get width(){return this.z}set width(t){this.z=t}get height(){return this.w}set height(t){this.w=t}set(t,e,n,s){return this.x=t,this.y=e,this.z=n,this.w=s,this}setScalar(t){return this.x=t,this.y=t,this.z=t,this.w=t,this}setX(t){return this.x=t,this}setY(t){return this.y=t,this}setZ(t){return this.z=t,this}setW(t){return this.w=t,this}setComponent(t,e){switch(t){case 0:this.x=e;break;case 1:this.y=e;break;case 2:this.z=e;break;case 3:this.w=e;break;default:throw new Error("THREE.Vector4: index is out of range: "+t)}return this}getComponent(t){switch(t){case 0:return this.x;case 1:return this.y;case 2:return this.z;case 3:return this.w;default:throw new Error("THREE.Vector4: index is out of range: "+t)}}clone(){return new this.constructor(this.x,this.y,this.z,this.w)}copy(t){return this.x=t.x,this.y=t.y,this.z=t.z,this.w=t.w!==void 0?t.w:1,this}add(t){return this.x+=t.x,this.y+=t.y,this.z+=t.z,this.w+=t.w,this}addScalar(t){return this.x+=t,this.y+=t,this.z+=t,this.w+=t,this}addVectors(t,e){return this.x=t.x+e.x,this.y=t.y+e.y,this.z=t.z+e.z,this.w=t.w+e.w,this}addScaledVector(t,e){return this.x+=t.x*e,this.y+=t.y*e,this.z+=t.z*e,this.w+=t.w*e,this}sub(t){return this.x-=t.x,this.y-=t.y,this.z-=t.z,this.w-=t.w,this}subScalar(t){return this.x-=t,this.y-=t,this.z-=t,this.w-=t,this}subVectors(t,e){return this.x=t.x-e.x,this.y=t.y-e.y,this.z=t.z-e.z,this.w=t.w-e.w,this}multiply(t){return this.x*=t.x,this.y*=t.y,this.z*=t.z,this.w*=t.w,this}multiplyScalar(t){return this.x*=t,this.y*=t,this.z*=t,this.w*=t,this}applyMatrix4(t){let e=this.x,n=this.y,s=this.z,r=this.w,a=t.elements;return this.x=a[0]*e+a[4]*n+a[8]*s+a[12]*r,this.y=a[1]*e+a[5]*n+a[9]*s+a[13]*r,this.z=a[2]*e+a[6]*n+a[10]*s+a[14]*r,this.w=a[3]*e+a[7]*n+a[11]*s+a[15]*r,this}divide(t){return this.x/=t.x,this.y/=t.y,this.z/=t.z,this.w/=t.w,this}divideScalar(t){return this.multiplyScalar(1/t)}setAxisAngleFromQuaternion(t){this.w=2*Math.acos(t.w);let e=Math.sqrt(1-t.w*t.w);return e<1e-4?(this.x=1,this.y=0,this.z=0):(this.x=t.x/e,this.y=t.y/e,this.z=t.z/e),this}setAxisAngleFromRotationMatrix(t){let e,n,s,r,l=t.elements,c=l[0],h=l[4],d=l[8],u=l[1],f=l[5],x=l[9],w=l[2],m=l[6],p=l[10];if(Math.abs(h-u)<.01&&Math.abs(d-w)<.01&&Math.abs(x-m)<.01){if(Math.abs(h+u)<.1&&Math.abs(d+w)<.1&&Math.abs(x+m)<.1&&Math.abs(c+f+p-3)<.1)return this.set(1,0,0,0),this;e=Math.PI;let C=(c+1)/2,b=(f+1)/2,I=(p+1)/2,T=(h+u)/4,_=(d+w)/4,E=(x+m)/4;return C>b&&C>I?C<.01?(n=0,s=.707106781,r=.707106781):(n=Math.sqrt(C),s=T/n,r=_/n):b>I?b<.01?(n=.707106781,s=0,r=.707106781):(s=Math.sqrt(b),n=T/s,r=E/s):I<.01?(n=.707106781,s=.707106781,r=0):(r=Math.sqrt(I),n=_/r,s=E/r),this.set(n,s,r,e),this}let M=Math.sqrt((m-x)*(m-x)+(d-w)*(d-w)+(u-h)*(u-h));return Math.abs(M)<.001&&(M=1),this.x=(m-x)/M,this.y=(d-w)/M,this.z=(u-h)/M,this.w=Math.acos((c+f+p-1)/2),this}setFromMatrixPosition(t){let e=t.elements;return this.x=e[12],this.y=e[13],this.z=e[14],this.w=e[15],this}min(t){return this.x=Math.min(this.x,t.x),this.y=Math.min(this.y,t.y),this.z=Math.min(this.z,t.z),this.w=Math.min(this.w,t.w),this}max(t){return this.x=Math.max(this.x,t.x),this.y=Math.max(this.y,t.y),this.z=Math.max(this.z,t.z),this.w=Math.max(this.w,t.w),this}clamp(t,e){return this.x=fe(this.x,t.x,e.x),this.y=fe(this.y,t.y,e.y),this.z=fe(this.z,t.z,e.z),this.w=fe(this.w,t.w,e.w),this}clampScalar(t,e){return this.x=fe(this.x,t,e),this.y=fe(this.y,t,e),this.z=fe(this.z,t,e),this.w=fe(this.w,t,e),this}clampLength(t,e){let n=this.length();return this.divideScalar(n||1).multiplyScalar(fe(n,t,e))}floor(){return this.x=Math.floor(this.x),this.y=Math.floor(this.y),this.z=Math.floor(this.z),this.w=Math.floor(this.w),this}ceil(){return this.x=Math.ceil(this.x),this.y=Math.ceil(this.y),this.z=Math.ceil(this.z),this.w=Math.ceil(this.w),this}round(){return this.x=Math.round(this.x),this.y=Math.round(this.y),this.z=Math.round(this.z),this.w=Math.round(this.w),this}roundToZero(){return this.x=Math.trunc(this.x),this.y=Math.trunc(this.y),this.z=Math.trunc(this.z),this.w=Math.trunc(this.w),this}negate(){return this.x=-this.x,this.y=-this.y,this.z=-this.z,this.w=-this.w,this}dot(t){return this.x*t.x+this.y*t.y+this.z*t.z+this.w*t.w}lengthSq(){return this.x*this.x+this.y*this.y+this.z*this.z+this.w*this.w}length(){return Math.sqrt(this.x*this.x+this.y*this.y+this.z*this.z+this.w*this.w)}manhattanLength(){return Math.abs(this.x)+Math.abs(this.y)+Math.abs(this.z)+Math.abs(this.w)}normalize(){return this.divideScalar(this.length()||1)}setLength(t){return this.normalize().multiplyScalar(t)}lerp(t,e){return this.x+=(t.x-this.x)*e,this.y+=(t.y-this.y)*e,this.z+=(t.z-this.z)*e,this.w+=(t.w-this.w)*e,this}lerpVectors(t,e,n){return this.x=t.x+(e.x-t.x)*n,this.y=t.y+(e.y-t.y)*n,this.z=t.z+(e.z-t.z)*n,this.w=t.w+(e.w-t.w)*n,this}equals(t){return t.x===this.x&&t.y===this.y&&t.z===this.z&&t.w===this.w}fromArray(t,e=0){return this.x=t[e],this.y=t[e+1],this.z=t[e+2],this.w=t[e+3],this}toArray(t=[],e=0){return t[e]=this.x,t[e+1]=this.y,t[e+2]=this.z,t[e+3]=this.w,t}fromBufferAttribute(t,e){return this.x=t.getX(e),this.y=t.getY(e),this.z=t.getZ(e),this.w=t.getW(e),this}random(){return this.x=Math.random(),this.y=Math.random(),this.z=Math.random(),this.w=Math.random(),this}*[Symbol.iterator](){yield this.x,yield this.y,yield this.z,yield this.w}};Xh.prototype.isVector4=!0;var qe=Xh,Bo=class extends yi{constructor(t=1,e=1,n={}){super(),n=Object.assign({generateMipmaps:!1,internalFormat:null,minFilter:Un,depthBuffer:!0,stencilBuffer:!1,resolveColorBuffer:!0,resolveDepthBuffer:!0,resolveStencilBuffer:!0,storeMultisampledColorBuffer:!0,storeMultisampledDepthBuffer:!0,storeMultisampledStencilBuffer:!0,depthTexture:null,samples:0,count:1,depth:1,multiview:!1,useArrayDepthTexture:!1},n),this.isRenderTarget=!0,this.width=t,this.height=e,this.depth=n.depth,this.scissor=new qe(0,0,t,e),this.scissorTest=!1,this.viewport=new qe(0,0,t,e),this.textures=[];let s=n.count;for(let r=0;r<s;r++)this.textures[r]=new Bn({width:t,height:e,depth:n.depth}),this.textures[r].isRenderTargetTexture=!0,this.textures[r].renderTarget=this;this._setTextureOptions(n),this.depthBuffer=n.depthBuffer,this.stencilBuffer=n.stencilBuffer,this.resolveColorBuffer=n.resolveColorBuffer,this.resolveDepthBuffer=n.resolveDepthBuffer,this.resolveStencilBuffer=n.resolveStencilBuffer,this.storeMultisampledColorBuffer=n.storeMultisampledColorBuffer,this.storeMultisampledDepthBuffer=n.storeMultisampledDepthBuffer,this.storeMultisampledStencilBuffer=n.storeMultisampledStencilBuffer,this._depthTexture=null,this.depthTexture=n.depthTexture,this.samples=n.samples,this.multiview=n.multiview,this.useArrayDepthTexture=n.useArrayDepthTexture}_setTextureOptions(t={}){let e={minFilter:Un,generateMipmaps:!1,flipY:!1,internalFormat:null};t.mapping!==void 0&&(e.mapping=t.mapping),t.wrapS!==void 0&&(e.wrapS=t.wrapS),t.wrapT!==void 0&&(e.wrapT=t.wrapT),t.wrapR!==void 0&&(e.wrapR=t.wrapR),t.magFilter!==void 0&&(e.magFilter=t.magFilter),t.minFilter!==void 0&&(e.minFilter=t.minFilter),t.format!==void 0&&(e.format=t.format),t.type!==void 0&&(e.type=t.type),t.anisotropy!==void 0&&(e.anisotropy=t.anisotropy),t.colorSpace!==void 0&&(e.colorSpace=t.colorSpace),t.flipY!==void 0&&(e.flipY=t.flipY),t.generateMipmaps!==void 0&&(e.generateMipmaps=t.generateMipmaps),t.mipmapsAutoUpdate!==void 0&&(e.mipmapsAutoUpdate=t.mipmapsAutoUpdate),t.internalFormat!==void 0&&(e.internalFormat=t.internalFormat);for(let n=0;n<this.textures.length;n++)this.textures[n].setValues(e)}get texture(){return this.textures[0]}set texture(t){this.textures[0]=t}set depthTexture(t){this._depthTexture!==null&&this._depthTexture.renderTarget===this&&(this._depthTexture.renderTarget=null),t!==null&&t.renderTarget===null&&(t.renderTarget=this),this._depthTexture=t}get depthTexture(){return this._depthTexture}setSize(t,e,n=1){if(this.width!==t||this.height!==e||this.depth!==n){this.width=t,this.height=e,this.depth=n;for(let s=0,r=this.textures.length;s<r;s++)this.textures[s].image.width=t,this.textures[s].image.height=e,this.textures[s].image.depth=n,this.textures[s].isData3DTexture!==!0&&(this.textures[s].isArrayTexture=this.textures[s].image.depth>1);this.dispose()}this.viewport.set(0,0,t,e),this.scissor.set(0,0,t,e)}clone(){return new this.constructor().copy(this)}copy(t){this.width=t.width,this.height=t.height,this.depth=t.depth,this.scissor.copy(t.scissor),this.scissorTest=t.scissorTest,this.viewport.copy(t.viewport),this.textures.length=0;for(let e=0,n=t.textures.length;e<n;e++){this.textures[e]=t.textures[e].clone(),this.textures[e].isRenderTargetTexture=!0,this.textures[e].renderTarget=this;let s=Object.assign({},t.textures[e].image);this.textures[e].source=new Pr(s)}if(this.depthBuffer=t.depthBuffer,this.stencilBuffer=t.stencilBuffer,this.resolveColorBuffer=t.resolveColorBuffer,this.resolveDepthBuffer=t.resolveDepthBuffer,this.resolveStencilBuffer=t.resolveStencilBuffer,this.storeMultisampledColorBuffer=t.storeMultisampledColorBuffer,this.storeMultisampledDepthBuffer=t.storeMultisampledDepthBuffer,this.storeMultisampledStencilBuffer=t.storeMultisampledStencilBuffer,t.depthTexture!==null)if(t.depthTexture.renderTarget===t){let e=t.depthTexture.clone();e.renderTarget=null,this.depthTexture=e}else this.depthTexture=t.depthTexture;else this.depthTexture=null;return this.samples=t.samples,this.multiview=t.multiview,this.useArrayDepthTexture=t.useArrayDepthTexture,this}dispose(){this.dispatchEvent({type:"dispose"})}},Kn=class extends Bo{constructor(t=1,e=1,n={}){super(t,e,n),this.isWebGLRenderTarget=!0}},ya=class extends Bn{constructor(t=null,e=1,n=1,s=1){super(null),this.isDataArrayTexture=!0,this.image={data:t,width:e,height:n,depth:s},this.magFilter=bn,this.minFilter=bn,this.wrapR=Fi,this.generateMipmaps=!1,this.flipY=!1,this.unpackAlignment=1,this.layerUpdates=new Set}copy(t){return super.copy(t),this.wrapR=t.wrapR,this}addLayerUpdate(t){this.layerUpdates.add(t)}clearLayerUpdates(){this.layerUpdates.clear()}};var ko=class extends Bn{constructor(t=null,e=1,n=1,s=1){super(null),this.isData3DTexture=!0,this.image={data:t,width:e,height:n,depth:s},this.magFilter=bn,this.minFilter=bn,this.wrapR=Fi,this.generateMipmaps=!1,this.flipY=!1,this.unpackAlignment=1}copy(t){return super.copy(t),this.wrapR=t.wrapR,this}};var sl=class sl{constructor(t,e,n,s,r,a,o,l,c,h,d,u,f,x,w,m){this.elements=[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],t!==void 0&&this.set(t,e,n,s,r,a,o,l,c,h,d,u,f,x,w,m)}set(t,e,n,s,r,a,o,l,c,h,d,u,f,x,w,m){let p=this.elements;return p[0]=t,p[4]=e,p[8]=n,p[12]=s,p[1]=r,p[5]=a,p[9]=o,p[13]=l,p[2]=c,p[6]=h,p[10]=d,p[14]=u,p[3]=f,p[7]=x,p[11]=w,p[15]=m,this}identity(){return this.set(1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1),this}clone(){return new sl().fromArray(this.elements)}copy(t){let e=this.elements,n=t.elements;return e[0]=n[0],e[1]=n[1],e[2]=n[2],e[3]=n[3],e[4]=n[4],e[5]=n[5],e[6]=n[6],e[7]=n[7],e[8]=n[8],e[9]=n[9],e[10]=n[10],e[11]=n[11],e[12]=n[12],e[13]=n[13],e[14]=n[14],e[15]=n[15],this}copyPosition(t){let e=this.elements,n=t.elements;return e[12]=n[12],e[13]=n[13],e[14]=n[14],this}setFromMatrix3(t){let e=t.elements;return this.set(e[0],e[3],e[6],0,e[1],e[4],e[7],0,e[2],e[5],e[8],0,0,0,0,1),this}extractBasis(t,e,n){return this.determinantAffine()===0?(t.set(1,0,0),e.set(0,1,0),n.set(0,0,1),this):(t.setFromMatrixColumn(this,0),e.setFromMatrixColumn(this,1),n.setFromMatrixColumn(this,2),this)}makeBasis(t,e,n){return this.set(t.x,e.x,n.x,0,t.y,e.y,n.y,0,t.z,e.z,n.z,0,0,0,0,1),this}extractRotation(t){if(t.determinantAffine()===0)return this.identity();let e=this.elements,n=t.elements,s=1/pr.setFromMatrixColumn(t,0).length(),r=1/pr.setFromMatrixColumn(t,1).length(),a=1/pr.setFromMatrixColumn(t,2).length();return e[0]=n[0]*s,e[1]=n[1]*s,e[2]=n[2]*s,e[3]=0,e[4]=n[4]*r,e[5]=n[5]*r,e[6]=n[6]*r,e[7]=0,e[8]=n[8]*a,e[9]=n[9]*a,e[10]=n[10]*a,e[11]=0,e[12]=0,e[13]=0,e[14]=0,e[15]=1,this}makeRotationFromEuler(t){let e=this.elements,n=t.x,s=t.y,r=t.z,a=Math.cos(n),o=Math.sin(n),l=Math.cos(s),c=Math.sin(s),h=Math.cos(r),d=Math.sin(r);if(t.order==="XYZ"){let u=a*h,f=a*d,x=o*h,w=o*d;e[0]=l*h,e[4]=-l*d,e[8]=c,e[1]=f+x*c,e[5]=u-w*c,e[9]=-o*l,e[2]=w-u*c,e[6]=x+f*c,e[10]=a*l}else if(t.order==="YXZ"){let u=l*h,f=l*d,x=c*h,w=c*d;e[0]=u+w*o,e[4]=x*o-f,e[8]=a*c,e[1]=a*d,e[5]=a*h,e[9]=-o,e[2]=f*o-x,e[6]=w+u*o,e[10]=a*l}else if(t.order==="ZXY"){let u=l*h,f=l*d,x=c*h,w=c*d;e[0]=u-w*o,e[4]=-a*d,e[8]=x+f*o,e[1]=f+x*o,e[5]=a*h,e[9]=w-u*o,e[2]=-a*c,e[6]=o,e[10]=a*l}else if(t.order==="ZYX"){let u=a*h,f=a*d,x=o*h,w=o*d;e[0]=l*h,e[4]=x*c-f,e[8]=u*c+w,e[1]=l*d,e[5]=w*c+u,e[9]=f*c-x,e[2]=-c,e[6]=o*l,e[10]=a*l}else if(t.order==="YZX"){let u=a*l,f=a*c,x=o*l,w=o*c;e[0]=l*h,e[4]=w-u*d,e[8]=x*d+f,e[1]=d,e[5]=a*h,e[9]=-o*h,e[2]=-c*h,e[6]=f*d+x,e[10]=u-w*d}else if(t.order==="XZY"){let u=a*l,f=a*c,x=o*l,w=o*c;e[0]=l*h,e[4]=-d,e[8]=c*h,e[1]=u*d+w,e[5]=a*h,e[9]=f*d-x,e[2]=x*d-f,e[6]=o*h,e[10]=w*d+u}return e[3]=0,e[7]=0,e[11]=0,e[12]=0,e[13]=0,e[14]=0,e[15]=1,this}makeRotationFromQuaternion(t){return this.compose(Og,t,Bg)}lookAt(t,e,n){let s=this.elements;return Xn.subVectors(t,e),Xn.lengthSq()===0&&(Xn.z=1),Xn.normalize(),ms.crossVectors(n,Xn),ms.lengthSq()===0&&(Math.abs(n.z)===1?Xn.x+=1e-4:Xn.z+=1e-4,Xn.normalize(),ms.crossVectors(n,Xn)),ms.normalize(),no.crossVectors(Xn,ms),s[0]=ms.x,s[4]=no.x,s[8]=Xn.x,s[1]=ms.y,s[5]=no.y,s[9]=Xn.y,s[2]=ms.z,s[6]=no.z,s[10]=Xn.z,this}multiply(t){return this.multiplyMatrices(this,t)}premultiply(t){return this.multiplyMatrices(t,this)}multiplyMatrices(t,e){let n=t.elements,s=e.elements,r=this.elements,a=n[0],o=n[4],l=n[8],c=n[12],h=n[1],d=n[5],u=n[9],f=n[13],x=n[2],w=n[6],m=n[10],p=n[14],M=n[3],C=n[7],b=n[11],I=n[15],T=s[0],_=s[4],E=s[8],z=s[12],N=s[1],L=s[5],G=s[9],H=s[13],D=s[2],V=s[6],Y=s[10],k=s[14],ct=s[3],Z=s[7],j=s[11],st=s[15];return r[0]=a*T+o*N+l*D+c*ct,r[4]=a*_+o*L+l*V+c*Z,r[8]=a*E+o*G+l*Y+c*j,r[12]=a*z+o*H+l*k+c*st,r[1]=h*T+d*N+u*D+f*ct,r[5]=h*_+d*L+u*V+f*Z,r[9]=h*E+d*G+u*Y+f*j,r[13]=h*z+d*H+u*k+f*st,r[2]=x*T+w*N+m*D+p*ct,r[6]=x*_+w*L+m*V+p*Z,r[10]=x*E+w*G+m*Y+p*j,r[14]=x*z+w*H+m*k+p*st,r[3]=M*T+C*N+b*D+I*ct,r[7]=M*_+C*L+b*V+I*Z,r[11]=M*E+C*G+b*Y+I*j,r[15]=M*z+C*H+b*k+I*st,this}multiplyScalar(t){let e=this.elements;return e[0]*=t,e[4]*=t,e[8]*=t,e[12]*=t,e[1]*=t,e[5]*=t,e[9]*=t,e[13]*=t,e[2]*=t,e[6]*=t,e[10]*=t,e[14]*=t,e[3]*=t,e[7]*=t,e[11]*=t,e[15]*=t,this}determinant(){let t=this.elements,e=t[0],n=t[4],s=t[8],r=t[12],a=t[1],o=t[5],l=t[9],c=t[13],h=t[2],d=t[6],u=t[10],f=t[14],x=t[3],w=t[7],m=t[11],p=t[15],M=l*f-c*u,C=o*f-c*d,b=o*u-l*d,I=a*f-c*h,T=a*u-l*h,_=a*d-o*h;return e*(w*M-m*C+p*b)-n*(x*M-m*I+p*T)+s*(x*C-w*I+p*_)-r*(x*b-w*T+m*_)}determinantAffine(){let t=this.elements,e=t[0],n=t[4],s=t[8],r=t[1],a=t[5],o=t[9],l=t[2],c=t[6],h=t[10];return e*(a*h-o*c)-n*(r*h-o*l)+s*(r*c-a*l)}transpose(){let t=this.elements,e;return e=t[1],t[1]=t[4],t[4]=e,e=t[2],t[2]=t[8],t[8]=e,e=t[6],t[6]=t[9],t[9]=e,e=t[3],t[3]=t[12],t[12]=e,e=t[7],t[7]=t[13],t[13]=e,e=t[11],t[11]=t[14],t[14]=e,this}setPosition(t,e,n){let s=this.elements;return t.isVector3?(s[12]=t.x,s[13]=t.y,s[14]=t.z):(s[12]=t,s[13]=e,s[14]=n),this}invert(){let t=this.elements,e=t[0],n=t[1],s=t[2],r=t[3],a=t[4],o=t[5],l=t[6],c=t[7],h=t[8],d=t[9],u=t[10],f=t[11],x=t[12],w=t[13],m=t[14],p=t[15],M=e*o-n*a,C=e*l-s*a,b=e*c-r*a,I=n*l-s*o,T=n*c-r*o,_=s*c-r*l,E=h*w-d*x,z=h*m-u*x,N=h*p-f*x,L=d*m-u*w,G=d*p-f*w,H=u*p-f*m,D=M*H-C*G+b*L+I*N-T*z+_*E;if(D===0)return this.set(0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0);let V=1/D;return t[0]=(o*H-l*G+c*L)*V,t[1]=(s*G-n*H-r*L)*V,t[2]=(w*_-m*T+p*I)*V,t[3]=(u*T-d*_-f*I)*V,t[4]=(l*N-a*H-c*z)*V,t[5]=(e*H-s*N+r*z)*V,t[6]=(m*b-x*_-p*C)*V,t[7]=(h*_-u*b+f*C)*V,t[8]=(a*G-o*N+c*E)*V,t[9]=(n*N-e*G-r*E)*V,t[10]=(x*T-w*b+p*M)*V,t[11]=(d*b-h*T-f*M)*V,t[12]=(o*z-a*L-l*E)*V,t[13]=(e*L-n*z+s*E)*V,t[14]=(w*C-x*I-m*M)*V,t[15]=(h*I-d*C+u*M)*V,this}scale(t){let e=this.elements,n=t.x,s=t.y,r=t.z;return e[0]*=n,e[4]*=s,e[8]*=r,e[1]*=n,e[5]*=s,e[9]*=r,e[2]*=n,e[6]*=s,e[10]*=r,e[3]*=n,e[7]*=s,e[11]*=r,this}getMaxScaleOnAxis(){let t=this.elements,e=t[0]*t[0]+t[1]*t[1]+t[2]*t[2],n=t[4]*t[4]+t[5]*t[5]+t[6]*t[6],s=t[8]*t[8]+t[9]*t[9]+t[10]*t[10];return Math.sqrt(Math.max(e,n,s))}makeTranslation(t,e,n){return t.isVector3?this.set(1,0,0,t.x,0,1,0,t.y,0,0,1,t.z,0,0,0,1):this.set(1,0,0,t,0,1,0,e,0,0,1,n,0,0,0,1),this}makeRotationX(t){let e=Math.cos(t),n=Math.sin(t);return this.set(1,0,0,0,0,e,-n,0,0,n,e,0,0,0,0,1),this}makeRotationY(t){let e=Math.cos(t),n=Math.sin(t);return this.set(e,0,n,0,0,1,0,0,-n,0,e,0,0,0,0,1),this}makeRotationZ(t){let e=Math.cos(t),n=Math.sin(t);return this.set(e,-n,0,0,n,e,0,0,0,0,1,0,0,0,0,1),this}makeRotationAxis(t,e){let n=Math.cos(e),s=Math.sin(e),r=1-n,a=t.x,o=t.y,l=t.z,c=r*a,h=r*o;return this.set(c*a+n,c*o-s*l,c*l+s*o,0,c*o+s*l,h*o+n,h*l-s*a,0,c*l-s*o,h*l+s*a,r*l*l+n,0,0,0,0,1),this}makeScale(t,e,n){return this.set(t,0,0,0,0,e,0,0,0,0,n,0,0,0,0,1),this}makeShear(t,e,n,s,r,a){return this.set(1,n,r,0,t,1,a,0,e,s,1,0,0,0,0,1),this}compose(t,e,n){let s=this.elements,r=e._x,a=e._y,o=e._z,l=e._w,c=r+r,h=a+a,d=o+o,u=r*c,f=r*h,x=r*d,w=a*h,m=a*d,p=o*d,M=l*c,C=l*h,b=l*d,I=n.x,T=n.y,_=n.z;return s[0]=(1-(w+p))*I,s[1]=(f+b)*I,s[2]=(x-C)*I,s[3]=0,s[4]=(f-b)*T,s[5]=(1-(u+p))*T,s[6]=(m+M)*T,s[7]=0,s[8]=(x+C)*_,s[9]=(m-M)*_,s[10]=(1-(u+w))*_,s[11]=0,s[12]=t.x,s[13]=t.y,s[14]=t.z,s[15]=1,this}decompose(t,e,n){let s=this.elements;t.x=s[12],t.y=s[13],t.z=s[14];let r=this.determinantAffine();if(r===0)return n.set(1,1,1),e.identity(),this;let a=pr.set(s[0],s[1],s[2]).length(),o=pr.set(s[4],s[5],s[6]).length(),l=pr.set(s[8],s[9],s[10]).length();r<0&&(a=-a),gi.copy(this);let c=1/a,h=1/o,d=1/l;return gi.elements[0]*=c,gi.elements[1]*=c,gi.elements[2]*=c,gi.elements[4]*=h,gi.elements[5]*=h,gi.elements[6]*=h,gi.elements[8]*=d,gi.elements[9]*=d,gi.elements[10]*=d,e.setFromRotationMatrix(gi),n.x=a,n.y=o,n.z=l,this}makePerspective(t,e,n,s,r,a,o=oi,l=!1){let c=this.elements,h=2*r/(e-t),d=2*r/(n-s),u=(e+t)/(e-t),f=(n+s)/(n-s),x,w;if(l)x=r/(a-r),w=a*r/(a-r);else if(o===oi)x=-(a+r)/(a-r),w=-2*a*r/(a-r);else if(o===_a)x=-a/(a-r),w=-a*r/(a-r);else throw new Error("THREE.Matrix4.makePerspective(): Invalid coordinate system: "+o);return c[0]=h,c[4]=0,c[8]=u,c[12]=0,c[1]=0,c[5]=d,c[9]=f,c[13]=0,c[2]=0,c[6]=0,c[10]=x,c[14]=w,c[3]=0,c[7]=0,c[11]=-1,c[15]=0,this}makeOrthographic(t,e,n,s,r,a,o=oi,l=!1){let c=this.elements,h=2/(e-t),d=2/(n-s),u=-(e+t)/(e-t),f=-(n+s)/(n-s),x,w;if(l)x=1/(a-r),w=a/(a-r);else if(o===oi)x=-2/(a-r),w=-(a+r)/(a-r);else if(o===_a)x=-1/(a-r),w=-r/(a-r);else throw new Error("THREE.Matrix4.makeOrthographic(): Invalid coordinate system: "+o);return c[0]=h,c[4]=0,c[8]=0,c[12]=u,c[1]=0,c[5]=d,c[9]=0,c[13]=f,c[2]=0,c[6]=0,c[10]=x,c[14]=w,c[3]=0,c[7]=0,c[11]=0,c[15]=1,this}equals(t){let e=this.elements,n=t.elements;for(let s=0;s<16;s++)if(e[s]!==n[s])return!1;return!0}fromArray(t,e=0){for(let n=0;n<16;n++)this.elements[n]=t[n+e];return this}toArray(t=[],e=0){let n=this.elements;return t[e]=n[0],t[e+1]=n[1],t[e+2]=n[2],t[e+3]=n[3],t[e+4]=n[4],t[e+5]=n[5],t[e+6]=n[6],t[e+7]=n[7],t[e+8]=n[8],t[e+9]=n[9],t[e+10]=n[10],t[e+11]=n[11],t[e+12]=n[12],t[e+13]=n[13],t[e+14]=n[14],t[e+15]=n[15],t}};sl.prototype.isMatrix4=!0;var Xe=sl,pr=new J,gi=new Xe,Og=new J(0,0,0),Bg=new J(1,1,1),ms=new J,no=new J,Xn=new J,Td=new Xe,Ad=new Jn,Ss=class i{constructor(t=0,e=0,n=0,s=i.DEFAULT_ORDER){this.isEuler=!0,this._x=t,this._y=e,this._z=n,this._order=s}get x(){return this._x}set x(t){this._x=t,this._onChangeCallback()}get y(){return this._y}set y(t){this._y=t,this._onChangeCallback()}get z(){return this._z}set z(t){this._z=t,this._onChangeCallback()}get order(){return this._order}set order(t){this._order=t,this._onChangeCallback()}set(t,e,n,s=this._order){return this._x=t,this._y=e,this._z=n,this._order=s,this._onChangeCallback(),this}clone(){return new this.constructor(this._x,this._y,this._z,this._order)}copy(t){return this._x=t._x,this._y=t._y,this._z=t._z,this._order=t._order,this._onChangeCallback(),this}setFromRotationMatrix(t,e=this._order,n=!0){let s=t.elements,r=s[0],a=s[4],o=s[8],l=s[1],c=s[5],h=s[9],d=s[2],u=s[6],f=s[10];switch(e){case"XYZ":this._y=Math.asin(fe(o,-1,1)),Math.abs(o)<.9999999?(this._x=Math.atan2(-h,f),this._z=Math.atan2(-a,r)):(this._x=Math.atan2(u,c),this._z=0);break;case"YXZ":this._x=Math.asin(-fe(h,-1,1)),Math.abs(h)<.9999999?(this._y=Math.atan2(o,f),this._z=Math.atan2(l,c)):(this._y=Math.atan2(-d,r),this._z=0);break;case"ZXY":this._x=Math.asin(fe(u,-1,1)),Math.abs(u)<.9999999?(this._y=Math.atan2(-d,f),this._z=Math.atan2(-a,c)):(this._y=0,this._z=Math.atan2(l,r));break;case"ZYX":this._y=Math.asin(-fe(d,-1,1)),Math.abs(d)<.9999999?(this._x=Math.atan2(u,f),this._z=Math.atan2(l,r)):(this._x=0,this._z=Math.atan2(-a,c));break;case"YZX":this._z=Math.asin(fe(l,-1,1)),Math.abs(l)<.9999999?(this._x=Math.atan2(-h,c),this._y=Math.atan2(-d,r)):(this._x=0,this._y=Math.atan2(o,f));break;case"XZY":this._z=Math.asin(-fe(a,-1,1)),Math.abs(a)<.9999999?(this._x=Math.atan2(u,c),this._y=Math.atan2(o,r)):(this._x=Math.atan2(-h,f),this._y=0);break;default:$t("Euler: .setFromRotationMatrix() encountered an unknown order: "+e)}return this._order=e,n===!0&&this._onChangeCallback(),this}setFromQuaternion(t,e,n){return Td.makeRotationFromQuaternion(t),this.setFromRotationMatrix(Td,e,n)}setFromVector3(t,e=this._order){return this.set(t.x,t.y,t.z,e)}reorder(t){return Ad.setFromEuler(this),this.setFromQuaternion(Ad,t)}equals(t){return t._x===this._x&&t._y===this._y&&t._z===this._z&&t._order===this._order}fromArray(t){return this._x=t[0],this._y=t[1],this._z=t[2],t[3]!==void 0&&(this._order=t[3]),this._onChangeCallback(),this}toArray(t=[],e=0){return t[e]=this._x,t[e+1]=this._y,t[e+2]=this._z,t[e+3]=this._order,t}_onChange(t){return this._onChangeCallback=t,this}_onChangeCallback(){}*[Symbol.iterator](){yield this._x,yield this._y,yield this._z,yield this._order}};Ss.DEFAULT_ORDER="XYZ";var va=class{constructor(){this.mask=1}set(t){this.mask=(1<<t|0)>>>0}enable(t){this.mask|=1<<t|0}enableAll(){this.mask=-1}toggle(t){this.mask^=1<<t|0}disable(t){this.mask&=~(1<<t|0)}disableAll(){this.mask=0}test(t){return(this.mask&t.mask)!==0}isEnabled(t){return(this.mask&(1<<t|0))!==0}},kg=0,Rd=new J,mr=new Jn,Zi=new Xe,io=new J,la=new J,zg=new J,Vg=new Jn,Cd=new J(1,0,0),Pd=new J(0,1,0),Id=new J(0,0,1),Ld={type:"added"},Gg={type:"removed"},gr={type:"childadded",child:null},Bc={type:"childremoved",child:null},jn=class i extends yi{constructor(){super(),this.isObject3D=!0,Object.defineProperty(this,"id",{value:kg++}),this.uuid=zr(),this.name="",this.type="Object3D",this.parent=null,this.children=[],this.up=i.DEFAULT_UP.clone();let t=new J,e=new Ss,n=new Jn,s=new J(1,1,1);function r(){n.setFromEuler(e,!1)}function a(){e.setFromQuaternion(n,void 0,!1)}e._onChange(r),n._onChange(a),Object.defineProperties(this,{position:{configurable:!0,enumerable:!0,value:t},rotation:{configurable:!0,enumerable:!0,value:e},quaternion:{configurable:!0,enumerable:!0,value:n},scale:{configurable:!0,enumerable:!0,value:s},modelViewMatrix:{value:new Xe},normalMatrix:{value:new Qt}}),this.matrix=new Xe,this.matrixWorld=new Xe,this.matrixAutoUpdate=i.DEFAULT_MATRIX_AUTO_UPDATE,this.matrixWorldAutoUpdate=i.DEFAULT_MATRIX_WORLD_AUTO_UPDATE,this.matrixWorldNeedsUpdate=!1,this.layers=new va,this.visible=!0,this.castShadow=!1,this.receiveShadow=!1,this.frustumCulled=!0,this.renderOrder=0,this.animations=[],this.customDepthMaterial=void 0,this.customDistanceMaterial=void 0,this.static=!1,this.userData={},this.pivot=null}onBeforeShadow(){}onAfterShadow(){}onBeforeRender(){}onAfterRender(){}applyMatrix4(t){this.matrixAutoUpdate&&this.updateMatrix(),this.matrix.premultiply(t),this.matrix.decompose(this.position,this.quaternion,this.scale),this.pivot!==null&&this.position.copy(this.pivot).applyMatrix4(this.matrix).sub(this.pivot)}applyQuaternion(t){return this.quaternion.premultiply(t),this}setRotationFromAxisAngle(t,e){this.quaternion.setFromAxisAngle(t,e)}setRotationFromEuler(t){this.quaternion.setFromEuler(t,!0)}setRotationFromMatrix(t){this.quaternion.setFromRotationMatrix(t)}setRotationFromQuaternion(t){this.quaternion.copy(t)}rotateOnAxis(t,e){return mr.setFromAxisAngle(t,e),this.quaternion.multiply(mr),this}rotateOnWorldAxis(t,e){return mr.setFromAxisAngle(t,e),this.quaternion.premultiply(mr),this}rotateX(t){return this.rotateOnAxis(Cd,t)}rotateY(t){return this.rotateOnAxis(Pd,t)}rotateZ(t){return this.rotateOnAxis(Id,t)}translateOnAxis(t,e){return Rd.copy(t).applyQuaternion(this.quaternion),this.position.add(Rd.multiplyScalar(e)),this}translateX(t){return this.translateOnAxis(Cd,t)}translateY(t){return this.translateOnAxis(Pd,t)}translateZ(t){return this.translateOnAxis(Id,t)}localToWorld(t){return this.updateWorldMatrix(!0,!1),t.applyMatrix4(this.matrixWorld)}worldToLocal(t){return this.updateWorldMatrix(!0,!1),t.applyMatrix4(Zi.copy(this.matrixWorld).invert())}lookAt(t,e,n){t.isVector3?io.copy(t):io.set(t,e,n);let s=this.parent;this.updateWorldMatrix(!0,!1),la.setFromMatrixPosition(this.matrixWorld),this.isCamera||this.isLight?Zi.lookAt(la,io,this.up):Zi.lookAt(io,la,this.up),this.quaternion.setFromRotationMatrix(Zi),s&&(Zi.extractRotation(s.matrixWorld),mr.setFromRotationMatrix(Zi),this.quaternion.premultiply(mr.invert()))}add(t){if(arguments.length>1){for(let e=0;e<arguments.length;e++)this.add(arguments[e]);return this}return t===this?(jt("Object3D.add: object can't be added as a child of itself.",t),this):(t&&t.isObject3D?(t.removeFromParent(),t.parent=this,this.children.push(t),t.dispatchEvent(Ld),gr.child=t,this.dispatchEvent(gr),gr.child=null):jt("Object3D.add: object not an instance of THREE.Object3D.",t),this)}remove(t){if(arguments.length>1){for(let n=0;n<arguments.length;n++)this.remove(arguments[n]);return this}let e=this.children.indexOf(t);return e!==-1&&(t.parent=null,this.children.splice(e,1),t.dispatchEvent(Gg),Bc.child=t,this.dispatchEvent(Bc),Bc.child=null),this}removeFromParent(){let t=this.parent;return t!==null&&t.remove(this),this}clear(){return this.remove(...this.children)}attach(t){return this.updateWorldMatrix(!0,!1),Zi.copy(this.matrixWorld).invert(),t.parent!==null&&(t.parent.updateWorldMatrix(!0,!1),Zi.multiply(t.parent.matrixWorld)),t.applyMatrix4(Zi),t.removeFromParent(),t.parent=this,this.children.push(t),t.updateWorldMatrix(!1,!0),t.dispatchEvent(Ld),gr.child=t,this.dispatchEvent(gr),gr.child=null,this}getObjectById(t){return this.getObjectByProperty("id",t)}getObjectByName(t){return this.getObjectByProperty("name",t)}getObjectByProperty(t,e){if(this[t]===e)return this;for(let n=0,s=this.children.length;n<s;n++){let a=this.children[n].getObjectByProperty(t,e);if(a!==void 0)return a}}getObjectsByProperty(t,e,n=[]){this[t]===e&&n.push(this);let s=this.children;for(let r=0,a=s.length;r<a;r++)s[r].getObjectsByProperty(t,e,n);return n}getWorldPosition(t){return this.updateWorldMatrix(!0,!1),t.setFromMatrixPosition(this.matrixWorld)}getWorldQuaternion(t){return this.updateWorldMatrix(!0,!1),this.matrixWorld.decompose(la,t,zg),t}getWorldScale(t){return this.updateWorldMatrix(!0,!1),this.matrixWorld.decompose(la,Vg,t),t}getWorldDirection(t){this.updateWorldMatrix(!0,!1);let e=this.matrixWorld.elements;return t.set(e[8],e[9],e[10]).normalize()}raycast(){}intersectsFrustum(){return!0}traverse(t){t(this);let e=this.children;for(let n=0,s=e.length;n<s;n++)e[n].traverse(t)}traverseVisible(t){if(this.visible===!1)return;t(this);let e=this.children;for(let n=0,s=e.length;n<s;n++)e[n].traverseVisible(t)}traverseAncestors(t){let e=this.parent;e!==null&&(t(e),e.traverseAncestors(t))}updateMatrix(){this.matrix.compose(this.position,this.quaternion,this.scale);let t=this.pivot;if(t!==null){let e=t.x,n=t.y,s=t.z,r=this.matrix.elements;r[12]+=e-r[0]*e-r[4]*n-r[8]*s,r[13]+=n-r[1]*e-r[5]*n-r[9]*s,r[14]+=s-r[2]*e-r[6]*n-r[10]*s}this.matrixWorldNeedsUpdate=!0}updateMatrixWorld(t){this.matrixAutoUpdate&&this.updateMatrix(),(this.matrixWorldNeedsUpdate||t)&&(this.matrixWorldAutoUpdate===!0&&(this.parent===null?this.matrixWorld.copy(this.matrix):this.matrixWorld.multiplyMatrices(this.parent.matrixWorld,this.matrix)),this.matrixWorldNeedsUpdate=!1,t=!0);let e=this.children;for(let n=0,s=e.length;n<s;n++)e[n].updateMatrixWorld(t)}updateWorldMatrix(t,e,n=!1){let s=this.parent;if(t===!0&&s!==null&&s.updateWorldMatrix(!0,!1),this.matrixAutoUpdate&&this.updateMatrix(),(this.matrixWorldNeedsUpdate||n)&&(this.matrixWorldAutoUpdate===!0&&(this.parent===null?this.matrixWorld.copy(this.matrix):this.matrixWorld.multiplyMatrices(this.parent.matrixWorld,this.matrix)),this.matrixWorldNeedsUpdate=!1,n=!0),e===!0){let r=this.children;for(let a=0,o=r.length;a<o;a++)r[a].updateWorldMatrix(!1,!0,n)}}toJSON(t){let e=t===void 0||typeof t=="string",n={};e&&(t={geometries:{},materials:{},textures:{},images:{},shapes:{},skeletons:{},animations:{},nodes:{}},n.metadata={version:4.7,type:"Object",generator:"Object3D.toJSON"});let s={};s.uuid=this.uuid,s.type=this.type,s.name=this.name,s.castShadow=this.castShadow,s.receiveShadow=this.receiveShadow,s.visible=this.visible,s.frustumCulled=this.frustumCulled,s.renderOrder=this.renderOrder,s.static=this.static,s.matrixAutoUpdate=this.matrixAutoUpdate,Object.keys(this.userData).length>0&&(s.userData=this.userData),s.layers=this.layers.mask,s.matrix=this.matrix.toArray(),s.up=this.up.toArray(),this.pivot!==null&&(s.pivot=this.pivot.toArray()),this.morphTargetDictionary!==void 0&&(s.morphTargetDictionary=Object.assign({},this.morphTargetDictionary)),this.morphTargetInfluences!==void 0&&(s.morphTargetInfluences=this.morphTargetInfluences.slice()),this.isInstancedMesh&&(s.type="InstancedMesh",s.count=this.count,s.instanceMatrix=this.instanceMatrix.toJSON(),this.instanceColor!==null&&(s.instanceColor=this.instanceColor.toJSON())),this.isBatchedMesh&&(s.type="BatchedMesh",s.perObjectFrustumCulled=this.perObjectFrustumCulled,s.sortObjects=this.sortObjects,s.drawRanges=this._drawRanges,s.reservedRanges=this._reservedRanges,s.geometryInfo=this._geometryInfo.map(o=>({...o,boundingBox:o.boundingBox?o.boundingBox.toJSON():void 0,boundingSphere:o.boundingSphere?o.boundingSphere.toJSON():void 0})),s.instanceInfo=this._instanceInfo.map(o=>({...o})),s.availableInstanceIds=this._availableInstanceIds.slice(),s.availableGeometryIds=this._availableGeometryIds.slice(),s.nextIndexStart=this._nextIndexStart,s.nextVertexStart=this._nextVertexStart,s.geometryCount=this._geometryCount,s.maxInstanceCount=this._maxInstanceCount,s.maxVertexCount=this._maxVertexCount,s.maxIndexCount=this._maxIndexCount,s.geometryInitialized=this._geometryInitialized,s.matricesTexture=this._matricesTexture.toJSON(t),s.indirectTexture=this._indirectTexture.toJSON(t),this._colorsTexture!==null&&(s.colorsTexture=this._colorsTexture.toJSON(t)),this.boundingSphere!==null&&(s.boundingSphere=this.boundingSphere.toJSON()),this.boundingBox!==null&&(s.boundingBox=this.boundingBox.toJSON()));function r(o,l){return o[l.uuid]===void 0&&(o[l.uuid]=l.toJSON(t)),l.uuid}if(this.isScene)this.background&&(this.background.isColor?s.background=this.background.toJSON():this.background.isTexture&&(s.background=this.background.toJSON(t).uuid)),this.environment&&this.environment.isTexture&&this.environment.isRenderTargetTexture!==!0&&(s.environment=this.environment.toJSON(t).uuid);else if(this.isMesh||this.isLine||this.isPoints){s.geometry=r(t.geometries,this.geometry);let o=this.geometry.parameters;if(o!==void 0&&o.shapes!==void 0){let l=o.shapes;if(Array.isArray(l))for(let c=0,h=l.length;c<h;c++){let d=l[c];r(t.shapes,d)}else r(t.shapes,l)}}if(this.isSkinnedMesh&&(s.bindMode=this.bindMode,s.bindMatrix=this.bindMatrix.toArray(),this.skeleton!==void 0&&(r(t.skeletons,this.skeleton),s.skeleton=this.skeleton.uuid)),this.material!==void 0)if(Array.isArray(this.material)){let o=[];for(let l=0,c=this.material.length;l<c;l++)o.push(r(t.materials,this.material[l]));s.material=o}else s.material=r(t.materials,this.material);if(this.children.length>0){s.children=[];for(let o=0;o<this.children.length;o++)s.children.push(this.children[o].toJSON(t).object)}if(this.animations.length>0){s.animations=[];for(let o=0;o<this.animations.length;o++){let l=this.animations[o];s.animations.push(r(t.animations,l))}}if(e){let o=a(t.geometries),l=a(t.materials),c=a(t.textures),h=a(t.images),d=a(t.shapes),u=a(t.skeletons),f=a(t.animations),x=a(t.nodes);o.length>0&&(n.geometries=o),l.length>0&&(n.materials=l),c.length>0&&(n.textures=c),h.length>0&&(n.images=h),d.length>0&&(n.shapes=d),u.length>0&&(n.skeletons=u),f.length>0&&(n.animations=f),x.length>0&&(n.nodes=x)}return n.object=s,n;function a(o){let l=[];for(let c in o){let h=o[c];delete h.metadata,l.push(h)}return l}}clone(t){return new this.constructor().copy(this,t)}copy(t,e=!0){if(this.name=t.name,this.up.copy(t.up),this.position.copy(t.position),this.rotation.order=t.rotation.order,this.quaternion.copy(t.quaternion),this.scale.copy(t.scale),this.pivot=t.pivot!==null?t.pivot.clone():null,this.matrix.copy(t.matrix),this.matrixWorld.copy(t.matrixWorld),this.matrixAutoUpdate=t.matrixAutoUpdate,this.matrixWorldAutoUpdate=t.matrixWorldAutoUpdate,this.matrixWorldNeedsUpdate=t.matrixWorldNeedsUpdate,this.layers.mask=t.layers.mask,this.visible=t.visible,this.castShadow=t.castShadow,this.receiveShadow=t.receiveShadow,this.frustumCulled=t.frustumCulled,this.renderOrder=t.renderOrder,this.static=t.static,this.animations=t.animations.slice(),this.userData=JSON.parse(JSON.stringify(t.userData)),e===!0)for(let n=0;n<t.children.length;n++){let s=t.children[n];this.add(s.clone())}return this}dispose(){this.dispatchEvent({type:"dispose"})}};jn.DEFAULT_UP=new J(0,1,0);jn.DEFAULT_MATRIX_AUTO_UPDATE=!0;jn.DEFAULT_MATRIX_WORLD_AUTO_UPDATE=!0;var zs=class extends jn{constructor(){super(),this.isGroup=!0,this.type="Group"}},Hg={type:"move"},Ir=class{constructor(){this._targetRay=null,this._grip=null,this._hand=null}getHandSpace(){return this._hand===null&&(this._hand=new zs,this._hand.matrixAutoUpdate=!1,this._hand.visible=!1,this._hand.joints={},this._hand.inputState={pinching:!1}),this._hand}getTargetRaySpace(){return this._targetRay===null&&(this._targetRay=new zs,this._targetRay.matrixAutoUpdate=!1,this._targetRay.visible=!1,this._targetRay.hasLinearVelocity=!1,this._targetRay.linearVelocity=new J,this._targetRay.hasAngularVelocity=!1,this._targetRay.angularVelocity=new J),this._targetRay}getGripSpace(){return this._grip===null&&(this._grip=new zs,this._grip.matrixAutoUpdate=!1,this._grip.visible=!1,this._grip.hasLinearVelocity=!1,this._grip.linearVelocity=new J,this._grip.hasAngularVelocity=!1,this._grip.angularVelocity=new J,this._grip.eventsEnabled=!1),this._grip}dispatchEvent(t){return this._targetRay!==null&&this._targetRay.dispatchEvent(t),this._grip!==null&&this._grip.dispatchEvent(t),this._hand!==null&&this._hand.dispatchEvent(t),this}connect(t){if(t&&t.hand){let e=this._hand;if(e)for(let n of t.hand.values())this._getHandJoint(e,n)}return this.dispatchEvent({type:"connected",data:t}),this}disconnect(t){return this.dispatchEvent({type:"disconnected",data:t}),this._targetRay!==null&&(this._targetRay.visible=!1),this._grip!==null&&(this._grip.visible=!1),this._hand!==null&&(this._hand.visible=!1),this}update(t,e,n){let s=null,r=null,a=null,o=this._targetRay,l=this._grip,c=this._hand;if(t&&e.session.visibilityState!=="visible-blurred"){if(c&&t.hand){a=!0;for(let w of t.hand.values()){let m=e.getJointPose(w,n),p=this._getHandJoint(c,w);m!==null&&(p.matrix.fromArray(m.transform.matrix),p.matrix.decompose(p.position,p.quaternion,p.scale),p.matrixWorldNeedsUpdate=!0,p.jointRadius=m.radius),p.visible=m!==null}let h=c.joints["index-finger-tip"],d=c.joints["thumb-tip"],u=h.position.distanceTo(d.position),f=.02,x=.005;c.inputState.pinching&&u>f+x?(c.inputState.pinching=!1,this.dispatchEvent({type:"pinchend",handedness:t.handedness,target:this})):!c.inputState.pinching&&u<=f-x&&(c.inputState.pinching=!0,this.dispatchEvent({type:"pinchstart",handedness:t.handedness,target:this}))}else l!==null&&t.gripSpace&&(r=e.getPose(t.gripSpace,n),r!==null&&(l.matrix.fromArray(r.transform.matrix),l.matrix.decompose(l.position,l.quaternion,l.scale),l.matrixWorldNeedsUpdate=!0,r.linearVelocity?(l.hasLinearVelocity=!0,l.linearVelocity.copy(r.linearVelocity)):l.hasLinearVelocity=!1,r.angularVelocity?(l.hasAngularVelocity=!0,l.angularVelocity.copy(r.angularVelocity)):l.hasAngularVelocity=!1,l.eventsEnabled&&l.dispatchEvent({type:"gripUpdated",data:t,target:this})));o!==null&&(s=e.getPose(t.targetRaySpace,n),s===null&&r!==null&&(s=r),s!==null&&(o.matrix.fromArray(s.transform.matrix),o.matrix.decompose(o.position,o.quaternion,o.scale),o.matrixWorldNeedsUpdate=!0,s.linearVelocity?(o.hasLinearVelocity=!0,o.linearVelocity.copy(s.linearVelocity)):o.hasLinearVelocity=!1,s.angularVelocity?(o.hasAngularVelocity=!0,o.angularVelocity.copy(s.angularVelocity)):o.hasAngularVelocity=!1,this.dispatchEvent(Hg)))}return o!==null&&(o.visible=s!==null),l!==null&&(l.visible=r!==null),c!==null&&(c.visible=a!==null),this}_getHandJoint(t,e){if(t.joints[e.jointName]===void 0){let n=new zs;n.matrixAutoUpdate=!1,n.visible=!1,t.joints[e.jointName]=n,t.add(n)}return t.joints[e.jointName]}},If={aliceblue:15792383,antiquewhite:16444375,aqua:65535,aquamarine:8388564,azure:15794175,beige:16119260,bisque:16770244,black:0,blanchedalmond:16772045,blue:255,blueviolet:9055202,brown:10824234,burlywood:14596231,cadetblue:6266528,chartreuse:8388352,chocolate:13789470,coral:16744272,cornflowerblue:6591981,cornsilk:16775388,crimson:14423100,cyan:65535,darkblue:139,darkcyan:35723,darkgoldenrod:12092939,darkgray:11119017,darkgreen:25600,darkgrey:11119017,darkkhaki:12433259,darkmagenta:9109643,darkolivegreen:5597999,darkorange:16747520,darkorchid:10040012,darkred:9109504,darksalmon:15308410,darkseagreen:9419919,darkslateblue:4734347,darkslategray:3100495,darkslategrey:3100495,darkturquoise:52945,darkviolet:9699539,deeppink:16716947,deepskyblue:49151,dimgray:6908265,dimgrey:6908265,dodgerblue:2003199,firebrick:11674146,floralwhite:16775920,forestgreen:2263842,fuchsia:16711935,gainsboro:14474460,ghostwhite:16316671,gold:16766720,goldenrod:14329120,gray:8421504,green:32768,greenyellow:11403055,grey:8421504,honeydew:15794160,hotpink:16738740,indianred:13458524,indigo:4915330,ivory:16777200,khaki:15787660,lavender:15132410,lavenderblush:16773365,lawngreen:8190976,lemonchiffon:16775885,lightblue:11393254,lightcoral:15761536,lightcyan:14745599,lightgoldenrodyellow:16448210,lightgray:13882323,lightgreen:9498256,lightgrey:13882323,lightpink:16758465,lightsalmon:16752762,lightseagreen:2142890,lightskyblue:8900346,lightslategray:7833753,lightslategrey:7833753,lightsteelblue:11584734,lightyellow:16777184,lime:65280,limegreen:3329330,linen:16445670,magenta:16711935,maroon:8388608,mediumaquamarine:6737322,mediumblue:205,mediumorchid:12211667,mediumpurple:9662683,mediumseagreen:3978097,mediumslateblue:8087790,mediumspringgreen:64154,mediumturquoise:4772300,mediumvioletred:13047173,midnightblue:1644912,mintcream:16121850,mistyrose:16770273,moccasin:16770229,navajowhite:16768685,navy:128,oldlace:16643558,olive:8421376,olivedrab:7048739,orange:16753920,orangered:16729344,orchid:14315734,palegoldenrod:15657130,palegreen:10025880,paleturquoise:11529966,palevioletred:14381203,papayawhip:16773077,peachpuff:16767673,peru:13468991,pink:16761035,plum:14524637,powderblue:11591910,purple:8388736,rebeccapurple:6697881,red:16711680,rosybrown:12357519,royalblue:4286945,saddlebrown:9127187,salmon:16416882,sandybrown:16032864,seagreen:3050327,seashell:16774638,sienna:10506797,silver:12632256,skyblue:8900331,slateblue:6970061,slategray:7372944,slategrey:7372944,snow:16775930,springgreen:65407,steelblue:4620980,tan:13808780,teal:32896,thistle:14204888,tomato:16737095,turquoise:4251856,violet:15631086,wheat:16113331,white:16777215,whitesmoke:16119285,yellow:16776960,yellowgreen:10145074},gs={h:0,s:0,l:0},so={h:0,s:0,l:0};function kc(i,t,e){return e<0&&(e+=1),e>1&&(e-=1),e<1/6?i+(t-i)*6*e:e<1/2?t:e<2/3?i+(t-i)*6*(2/3-e):i}var ye=class{constructor(t,e,n){return this.isColor=!0,this.r=1,this.g=1,this.b=1,this.set(t,e,n)}set(t,e,n){if(e===void 0&&n===void 0){let s=t;s&&s.isColor?this.copy(s):typeof s=="number"?this.setHex(s):typeof s=="string"&&this.setStyle(s)}else this.setRGB(t,e,n);return this}setScalar(t){return this.r=t,this.g=t,this.b=t,this}setHex(t,e=$n){return t=Math.floor(t),this.r=(t>>16&255)/255,this.g=(t>>8&255)/255,this.b=(t&255)/255,ge.colorSpaceToWorking(this,e),this}setRGB(t,e,n,s=ge.workingColorSpace){return this.r=t,this.g=e,this.b=n,ge.colorSpaceToWorking(this,s),this}setHSL(t,e,n,s=ge.workingColorSpace){if(t=Nh(t,1),e=fe(e,0,1),n=fe(n,0,1),e===0)this.r=this.g=this.b=n;else{let r=n<=.5?n*(1+e):n+e-n*e,a=2*n-r;this.r=kc(a,r,t+1/3),this.g=kc(a,r,t),this.b=kc(a,r,t-1/3)}return ge.colorSpaceToWorking(this,s),this}setStyle(t,e=$n){function n(r){r!==void 0&&parseFloat(r)<1&&$t("Color: Alpha component of "+t+" will be ignored.")}let s;if(s=/^(\w+)\(([^\)]*)\)/.exec(t)){let r,a=s[1],o=s[2];switch(a){case"rgb":case"rgba":if(r=/^\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*(\d+(?:\.\d+)?|\.\d+)\s*)?$/.exec(o))return n(r[4]),this.setRGB(Math.min(255,parseInt(r[1],10))/255,Math.min(255,parseInt(r[2],10))/255,Math.min(255,parseInt(r[3],10))/255,e);if(r=/^\s*(\d+(?:\.\d+)?|\.\d+)\%\s*,\s*(\d+(?:\.\d+)?|\.\d+)\%\s*,\s*(\d+(?:\.\d+)?|\.\d+)\%\s*(?:,\s*(\d+(?:\.\d+)?|\.\d+)\s*)?$/.exec(o))return n(r[4]),this.setRGB(Math.min(100,parseFloat(r[1]))/100,Math.min(100,parseFloat(r[2]))/100,Math.min(100,parseFloat(r[3]))/100,e);break;case"hsl":case"hsla":if(r=/^\s*([+-]?(?:\d+(?:\.\d+)?|\.\d+))\s*,\s*(\d+(?:\.\d+)?|\.\d+)\%\s*,\s*(\d+(?:\.\d+)?|\.\d+)\%\s*(?:,\s*(\d+(?:\.\d+)?|\.\d+)\s*)?$/.exec(o))return n(r[4]),this.setHSL(parseFloat(r[1])/360,parseFloat(r[2])/100,parseFloat(r[3])/100,e);break;default:$t("Color: Unknown color model "+t)}}else if(s=/^\#([A-Fa-f\d]+)$/.exec(t)){let r=s[1],a=r.length;if(a===3)return this.setRGB(parseInt(r.charAt(0),16)/15,parseInt(r.charAt(1),16)/15,parseInt(r.charAt(2),16)/15,e);if(a===6)return this.setHex(parseInt(r,16),e);$t("Color: Invalid hex color "+t)}else if(t&&t.length>0)return this.setColorName(t,e);return this}setColorName(t,e=$n){let n=If[t.toLowerCase()];return n!==void 0?this.setHex(n,e):$t("Color: Unknown color "+t),this}clone(){return new this.constructor(this.r,this.g,this.b)}copy(t){return this.r=t.r,this.g=t.g,this.b=t.b,this}copySRGBToLinear(t){return this.r=ts(t.r),this.g=ts(t.g),this.b=ts(t.b),this}copyLinearToSRGB(t){return this.r=Tr(t.r),this.g=Tr(t.g),this.b=Tr(t.b),this}convertSRGBToLinear(){return this.copySRGBToLinear(this),this}convertLinearToSRGB(){return this.copyLinearToSRGB(this),this}getHex(t=$n){return ge.workingToColorSpace(An.copy(this),t),Math.round(fe(An.r*255,0,255))*65536+Math.round(fe(An.g*255,0,255))*256+Math.round(fe(An.b*255,0,255))}getHexString(t=$n){return("000000"+this.getHex(t).toString(16)).slice(-6)}getHSL(t,e=ge.workingColorSpace){ge.workingToColorSpace(An.copy(this),e);let n=An.r,s=An.g,r=An.b,a=Math.max(n,s,r),o=Math.min(n,s,r),l,c,h=(o+a)/2;if(o===a)l=0,c=0;else{let d=a-o;switch(c=h<=.5?d/(a+o):d/(2-a-o),a){case n:l=(s-r)/d+(s<r?6:0);break;case s:l=(r-n)/d+2;break;case r:l=(n-s)/d+4;break}l/=6}return t.h=l,t.s=c,t.l=h,t}getRGB(t,e=ge.workingColorSpace){return ge.workingToColorSpace(An.copy(this),e),t.r=An.r,t.g=An.g,t.b=An.b,t}getStyle(t=$n){ge.workingToColorSpace(An.copy(this),t);let e=An.r,n=An.g,s=An.b;return t!==$n?`color(${t} ${e.toFixed(3)} ${n.toFixed(3)} ${s.toFixed(3)})`:`rgb(${Math.round(e*255)},${Math.round(n*255)},${Math.round(s*255)})`}offsetHSL(t,e,n){return this.getHSL(gs),this.setHSL(gs.h+t,gs.s+e,gs.l+n)}add(t){return this.r+=t.r,this.g+=t.g,this.b+=t.b,this}addColors(t,e){return this.r=t.r+e.r,this.g=t.g+e.g,this.b=t.b+e.b,this}addScalar(t){return this.r+=t,this.g+=t,this.b+=t,this}sub(t){return this.r=Math.max(0,this.r-t.r),this.g=Math.max(0,this.g-t.g),this.b=Math.max(0,this.b-t.b),this}multiply(t){return this.r*=t.r,this.g*=t.g,this.b*=t.b,this}multiplyScalar(t){return this.r*=t,this.g*=t,this.b*=t,this}lerp(t,e){return this.r+=(t.r-this.r)*e,this.g+=(t.g-this.g)*e,this.b+=(t.b-this.b)*e,this}lerpColors(t,e,n){return this.r=t.r+(e.r-t.r)*n,this.g=t.g+(e.g-t.g)*n,this.b=t.b+(e.b-t.b)*n,this}lerpHSL(t,e){this.getHSL(gs),t.getHSL(so);let n=pa(gs.h,so.h,e),s=pa(gs.s,so.s,e),r=pa(gs.l,so.l,e);return this.setHSL(n,s,r),this}setFromVector3(t){return this.r=t.x,this.g=t.y,this.b=t.z,this}applyMatrix3(t){let e=this.r,n=this.g,s=this.b,r=t.elements;return this.r=r[0]*e+r[3]*n+r[6]*s,this.g=r[1]*e+r[4]*n+r[7]*s,this.b=r[2]*e+r[5]*n+r[8]*s,this}equals(t){return t.r===this.r&&t.g===this.g&&t.b===this.b}fromArray(t,e=0){return this.r=t[e],this.g=t[e+1],this.b=t[e+2],this}toArray(t=[],e=0){return t[e]=this.r,t[e+1]=this.g,t[e+2]=this.b,t}fromBufferAttribute(t,e){return this.r=t.getX(e),this.g=t.getY(e),this.b=t.getZ(e),this}toJSON(){return this.getHex()}*[Symbol.iterator](){yield this.r,yield this.g,yield this.b}},An=new ye;ye.NAMES=If;var Sa=class extends jn{constructor(){super(),this.isScene=!0,this.type="Scene",this.background=null,this.environment=null,this.fog=null,this.backgroundBlurriness=0,this.backgroundIntensity=1,this.backgroundRotation=new Ss,this.environmentIntensity=1,this.environmentRotation=new Ss,this.overrideMaterial=null,typeof __THREE_DEVTOOLS__<"u"&&__THREE_DEVTOOLS__.dispatchEvent(new CustomEvent("observe",{detail:this}))}copy(t,e){return super.copy(t,e),this.background=t.background!==null?t.background.clone():null,this.environment=t.environment!==null?t.environment.clone():null,this.fog=t.fog!==null?t.fog.clone():null,this.backgroundBlurriness=t.backgroundBlurriness,this.backgroundIntensity=t.backgroundIntensity,this.backgroundRotation.copy(t.backgroundRotation),this.environmentIntensity=t.environmentIntensity,this.environmentRotation.copy(t.environmentRotation),this.overrideMaterial=t.overrideMaterial!==null?t.overrideMaterial.clone():null,this.matrixAutoUpdate=t.matrixAutoUpdate,this}toJSON(t){let e=super.toJSON(t);return this.fog!==null&&(e.object.fog=this.fog.toJSON()),e.object.backgroundBlurriness=this.backgroundBlurriness,e.object.backgroundIntensity=this.backgroundIntensity,e.object.backgroundRotation=this.backgroundRotation.toArray(),e.object.environmentIntensity=this.environmentIntensity,e.object.environmentRotation=this.environmentRotation.toArray(),e}},_i=new J,Ji=new J,zc=new J,Ki=new J,_r=new J,xr=new J,Dd=new J,Vc=new J,Gc=new J,Hc=new J,Wc=new qe,Xc=new qe,qc=new qe,vs=class i{constructor(t=new J,e=new J,n=new J){this.a=t,this.b=e,this.c=n}static getNormal(t,e,n,s){s.subVectors(n,e),_i.subVectors(t,e),s.cross(_i);let r=s.lengthSq();return r>0?s.multiplyScalar(1/Math.sqrt(r)):s.set(0,0,0)}static getBarycoord(t,e,n,s,r){_i.subVectors(s,e),Ji.subVectors(n,e),zc.subVectors(t,e);let a=_i.dot(_i),o=_i.dot(Ji),l=_i.dot(zc),c=Ji.dot(Ji),h=Ji.dot(zc),d=a*c-o*o;if(d===0)return r.set(0,0,0),null;let u=1/d,f=(c*l-o*h)*u,x=(a*h-o*l)*u;return r.set(1-f-x,x,f)}static containsPoint(t,e,n,s){return this.getBarycoord(t,e,n,s,Ki)===null?!1:Ki.x>=0&&Ki.y>=0&&Ki.x+Ki.y<=1}static getInterpolation(t,e,n,s,r,a,o,l){return this.getBarycoord(t,e,n,s,Ki)===null?(l.x=0,l.y=0,"z"in l&&(l.z=0),"w"in l&&(l.w=0),null):(l.setScalar(0),l.addScaledVector(r,Ki.x),l.addScaledVector(a,Ki.y),l.addScaledVector(o,Ki.z),l)}static getInterpolatedAttribute(t,e,n,s,r,a){return Wc.setScalar(0),Xc.setScalar(0),qc.setScalar(0),Wc.fromBufferAttribute(t,e),Xc.fromBufferAttribute(t,n),qc.fromBufferAttribute(t,s),a.setScalar(0),a.addScaledVector(Wc,r.x),a.addScaledVector(Xc,r.y),a.addScaledVector(qc,r.z),a}static isFrontFacing(t,e,n,s){return _i.subVectors(n,e),Ji.subVectors(t,e),_i.cross(Ji).dot(s)<0}set(t,e,n){return this.a.copy(t),this.b.copy(e),this.c.copy(n),this}setFromPointsAndIndices(t,e,n,s){return this.a.copy(t[e]),this.b.copy(t[n]),this.c.copy(t[s]),this}setFromAttributeAndIndices(t,e,n,s){return this.a.fromBufferAttribute(t,e),this.b.fromBufferAttribute(t,n),this.c.fromBufferAttribute(t,s),this}clone(){return new this.constructor().copy(this)}copy(t){return this.a.copy(t.a),this.b.copy(t.b),this.c.copy(t.c),this}getArea(){return _i.subVectors(this.c,this.b),Ji.subVectors(this.a,this.b),_i.cross(Ji).length()*.5}getMidpoint(t){return t.addVectors(this.a,this.b).add(this.c).multiplyScalar(1/3)}getNormal(t){return i.getNormal(this.a,this.b,this.c,t)}getPlane(t){return t.setFromCoplanarPoints(this.a,this.b,this.c)}getBarycoord(t,e){return i.getBarycoord(t,this.a,this.b,this.c,e)}getInterpolation(t,e,n,s,r){return i.getInterpolation(t,this.a,this.b,this.c,e,n,s,r)}containsPoint(t){return i.containsPoint(t,this.a,this.b,this.c)}isFrontFacing(t){return i.isFrontFacing(this.a,this.b,this.c,t)}intersectsBox(t){return t.intersectsTriangle(this)}closestPointToPoint(t,e){let n=this.a,s=this.b,r=this.c,a,o;_r.subVectors(s,n),xr.subVectors(r,n),Vc.subVectors(t,n);let l=_r.dot(Vc),c=xr.dot(Vc);if(l<=0&&c<=0)return e.copy(n);Gc.subVectors(t,s);let h=_r.dot(Gc),d=xr.dot(Gc);if(h>=0&&d<=h)return e.copy(s);let u=l*d-h*c;if(u<=0&&l>=0&&h<=0&&l-h>0)return a=l/(l-h),e.copy(n).addScaledVector(_r,a);Hc.subVectors(t,r);let f=_r.dot(Hc),x=xr.dot(Hc);if(x>=0&&f<=x)return e.copy(r);let w=f*c-l*x;if(w<=0&&c>=0&&x<=0)return o=c/(c-x),e.copy(n).addScaledVector(xr,o);let m=h*x-f*d;if(m<=0&&d-h>=0&&f-x>=0)return Dd.subVectors(r,s),o=(d-h)/(d-h+(f-x)),e.copy(s).addScaledVector(Dd,o);let p=1/(m+w+u);return a=w*p,o=u*p,e.copy(n).addScaledVector(_r,a).addScaledVector(xr,o)}equals(t){return t.a.equals(this.a)&&t.b.equals(this.b)&&t.c.equals(this.c)}},Ms=class{constructor(t=new J(1/0,1/0,1/0),e=new J(-1/0,-1/0,-1/0)){this.isBox3=!0,this.min=t,this.max=e}set(t,e){return this.min.copy(t),this.max.copy(e),this}setFromArray(t){this.makeEmpty();for(let e=0,n=t.length;e<n;e+=3)this.expandByPoint(xi.fromArray(t,e));return this}setFromBufferAttribute(t){this.makeEmpty();for(let e=0,n=t.count;e<n;e++)this.expandByPoint(xi.fromBufferAttribute(t,e));return this}setFromPoints(t){this.makeEmpty();for(let e=0,n=t.length;e<n;e++)this.expandByPoint(t[e]);return this}setFromCenterAndSize(t,e){let n=xi.copy(e).multiplyScalar(.5);return this.min.copy(t).sub(n),this.max.copy(t).add(n),this}setFromObject(t,e=!1){return this.makeEmpty(),this.expandByObject(t,e)}clone(){return new this.constructor().copy(this)}copy(t){return this.min.copy(t.min),this.max.copy(t.max),this}makeEmpty(){return this.min.x=this.min.y=this.min.z=1/0,this.max.x=this.max.y=this.max.z=-1/0,this}isEmpty(){return this.max.x<this.min.x||this.max.y<this.min.y||this.max.z<this.min.z}getCenter(t){return this.isEmpty()?t.set(0,0,0):t.addVectors(this.min,this.max).multiplyScalar(.5)}getSize(t){return this.isEmpty()?t.set(0,0,0):t.subVectors(this.max,this.min)}expandByPoint(t){return this.min.min(t),this.max.max(t),this}expandByVector(t){return this.min.sub(t),this.max.add(t),this}expandByScalar(t){return this.min.addScalar(-t),this.max.addScalar(t),this}expandByObject(t,e=!1){t.updateWorldMatrix(!1,!1);let n=t.geometry;if(n!==void 0){let r=n.getAttribute("position");if(e===!0&&r!==void 0&&t.isInstancedMesh!==!0&&t.isBatchedMesh!==!0)for(let a=0,o=r.count;a<o;a++)t.isMesh===!0?t.getVertexPosition(a,xi):xi.fromBufferAttribute(r,a),xi.applyMatrix4(t.matrixWorld),this.expandByPoint(xi);else t.boundingBox!==void 0?(t.boundingBox===null&&t.computeBoundingBox(),ro.copy(t.boundingBox)):(n.boundingBox===null&&n.computeBoundingBox(),ro.copy(n.boundingBox)),ro.applyMatrix4(t.matrixWorld),this.union(ro)}let s=t.children;for(let r=0,a=s.length;r<a;r++)this.expandByObject(s[r],e);return this}containsPoint(t){return t.x>=this.min.x&&t.x<=this.max.x&&t.y>=this.min.y&&t.y<=this.max.y&&t.z>=this.min.z&&t.z<=this.max.z}containsBox(t){return this.min.x<=t.min.x&&t.max.x<=this.max.x&&this.min.y<=t.min.y&&t.max.y<=this.max.y&&this.min.z<=t.min.z&&t.max.z<=this.max.z}getParameter(t,e){return e.set((t.x-this.min.x)/(this.max.x-this.min.x),(t.y-this.min.y)/(this.max.y-this.min.y),(t.z-this.min.z)/(this.max.z-this.min.z))}intersectsBox(t){return t.max.x>=this.min.x&&t.min.x<=this.max.x&&t.max.y>=this.min.y&&t.min.y<=this.max.y&&t.max.z>=this.min.z&&t.min.z<=this.max.z}intersectsSphere(t){return this.clampPoint(t.center,xi),xi.distanceToSquared(t.center)<=t.radius*t.radius}intersectsPlane(t){let e,n;return t.normal.x>0?(e=t.normal.x*this.min.x,n=t.normal.x*this.max.x):(e=t.normal.x*this.max.x,n=t.normal.x*this.min.x),t.normal.y>0?(e+=t.normal.y*this.min.y,n+=t.normal.y*this.max.y):(e+=t.normal.y*this.max.y,n+=t.normal.y*this.min.y),t.normal.z>0?(e+=t.normal.z*this.min.z,n+=t.normal.z*this.max.z):(e+=t.normal.z*this.max.z,n+=t.normal.z*this.min.z),e<=-t.constant&&n>=-t.constant}intersectsTriangle(t){if(this.isEmpty())return!1;this.getCenter(ca),ao.subVectors(this.max,ca),yr.subVectors(t.a,ca),vr.subVectors(t.b,ca),Sr.subVectors(t.c,ca),_s.subVectors(vr,yr),xs.subVectors(Sr,vr),Fs.subVectors(yr,Sr);let e=[0,-_s.z,_s.y,0,-xs.z,xs.y,0,-Fs.z,Fs.y,_s.z,0,-_s.x,xs.z,0,-xs.x,Fs.z,0,-Fs.x,-_s.y,_s.x,0,-xs.y,xs.x,0,-Fs.y,Fs.x,0];return!$c(e,yr,vr,Sr,ao)||(e=[1,0,0,0,1,0,0,0,1],!$c(e,yr,vr,Sr,ao))?!1:(oo.crossVectors(_s,xs),e=[oo.x,oo.y,oo.z],$c(e,yr,vr,Sr,ao))}clampPoint(t,e){return e.copy(t).clamp(this.min,this.max)}distanceToPoint(t){return this.clampPoint(t,xi).distanceTo(t)}getBoundingSphere(t){return this.isEmpty()?t.makeEmpty():(this.getCenter(t.center),t.radius=this.getSize(xi).length()*.5),t}intersect(t){return this.min.max(t.min),this.max.min(t.max),this.isEmpty()&&this.makeEmpty(),this}union(t){return this.min.min(t.min),this.max.max(t.max),this}applyMatrix4(t){return this.isEmpty()?this:(ji[0].set(this.min.x,this.min.y,this.min.z).applyMatrix4(t),ji[1].set(this.min.x,this.min.y,this.max.z).applyMatrix4(t),ji[2].set(this.min.x,this.max.y,this.min.z).applyMatrix4(t),ji[3].set(this.min.x,this.max.y,this.max.z).applyMatrix4(t),ji[4].set(this.max.x,this.min.y,this.min.z).applyMatrix4(t),ji[5].set(this.max.x,this.min.y,this.max.z).applyMatrix4(t),ji[6].set(this.max.x,this.max.y,this.min.z).applyMatrix4(t),ji[7].set(this.max.x,this.max.y,this.max.z).applyMatrix4(t),this.setFromPoints(ji),this)}translate(t){return this.min.add(t),this.max.add(t),this}equals(t){return t.min.equals(this.min)&&t.max.equals(this.max)}toJSON(){return{min:this.min.toArray(),max:this.max.toArray()}}fromJSON(t){return this.min.fromArray(t.min),this.max.fromArray(t.max),this}},ji=[new J,new J,new J,new J,new J,new J,new J,new J],xi=new J,ro=new Ms,yr=new J,vr=new J,Sr=new J,_s=new J,xs=new J,Fs=new J,ca=new J,ao=new J,oo=new J,Os=new J;function $c(i,t,e,n,s){for(let r=0,a=i.length-3;r<=a;r+=3){Os.fromArray(i,r);let o=s.x*Math.abs(Os.x)+s.y*Math.abs(Os.y)+s.z*Math.abs(Os.z),l=t.dot(Os),c=e.dot(Os),h=n.dot(Os);if(Math.max(-Math.max(l,c,h),Math.min(l,c,h))>o)return!1}return!0}var on=new J,lo=new re,Wg=0,Zn=class extends yi{constructor(t,e,n=!1){if(super(),Array.isArray(t))throw new TypeError("THREE.BufferAttribute: array should be a Typed Array.");this.isBufferAttribute=!0,Object.defineProperty(this,"id",{value:Wg++}),this.name="",this.array=t,this.itemSize=e,this.count=t!==void 0?t.length/e:0,this.normalized=n,this.usage=wf,this.updateRanges=[],this.gpuType=Si,this.version=0,this._normalizationScale=t!==void 0?Fh(t):void 0}onUploadCallback(){}set needsUpdate(t){t===!0&&this.version++}setUsage(t){return this.usage=t,this}addUpdateRange(t,e){this.updateRanges.push({start:t,count:e})}clearUpdateRanges(){this.updateRanges.length=0}copy(t){return this.name=t.name,this.array=new t.array.constructor(t.array),this.itemSize=t.itemSize,this.count=t.count,this.normalized=t.normalized,this.usage=t.usage,this.gpuType=t.gpuType,this._normalizationScale=t._normalizationScale,this}copyAt(t,e,n){t*=this.itemSize,n*=e.itemSize;for(let s=0,r=this.itemSize;s<r;s++)this.array[t+s]=e.array[n+s];return this}copyArray(t){return this.array.set(t),this}applyMatrix3(t){if(this.itemSize===2)for(let e=0,n=this.count;e<n;e++)lo.fromBufferAttribute(this,e),lo.applyMatrix3(t),this.setXY(e,lo.x,lo.y);else if(this.itemSize===3)for(let e=0,n=this.count;e<n;e++)on.fromBufferAttribute(this,e),on.applyMatrix3(t),this.setXYZ(e,on.x,on.y,on.z);return this}applyMatrix4(t){for(let e=0,n=this.count;e<n;e++)on.fromBufferAttribute(this,e),on.applyMatrix4(t),this.setXYZ(e,on.x,on.y,on.z);return this}applyNormalMatrix(t){for(let e=0,n=this.count;e<n;e++)on.fromBufferAttribute(this,e),on.applyNormalMatrix(t),this.setXYZ(e,on.x,on.y,on.z);return this}transformDirection(t){for(let e=0,n=this.count;e<n;e++)on.fromBufferAttribute(this,e),on.transformDirection(t),this.setXYZ(e,on.x,on.y,on.z);return this}set(t,e=0){return this.array.set(t,e),this}getComponent(t,e){let n=this.array[t*this.itemSize+e];return this.normalized&&(n=this._denormalize(n)),n}setComponent(t,e,n){return this.normalized&&(n=this._normalize(n)),this.array[t*this.itemSize+e]=n,this}getX(t){let e=this.array[t*this.itemSize];return this.normalized&&(e=this._denormalize(e)),e}setX(t,e){return this.normalized&&(e=this._normalize(e)),this.array[t*this.itemSize]=e,this}getY(t){let e=this.array[t*this.itemSize+1];return this.normalized&&(e=this._denormalize(e)),e}setY(t,e){return this.normalized&&(e=this._normalize(e)),this.array[t*this.itemSize+1]=e,this}getZ(t){let e=this.array[t*this.itemSize+2];return this.normalized&&(e=this._denormalize(e)),e}setZ(t,e){return this.normalized&&(e=this._normalize(e)),this.array[t*this.itemSize+2]=e,this}getW(t){let e=this.array[t*this.itemSize+3];return this.normalized&&(e=this._denormalize(e)),e}setW(t,e){return this.normalized&&(e=this._normalize(e)),this.array[t*this.itemSize+3]=e,this}setXY(t,e,n){return t*=this.itemSize,this.normalized&&(e=this._normalize(e),n=this._normalize(n)),this.array[t+0]=e,this.array[t+1]=n,this}setXYZ(t,e,n,s){return t*=this.itemSize,this.normalized&&(e=this._normalize(e),n=this._normalize(n),s=this._normalize(s)),this.array[t+0]=e,this.array[t+1]=n,this.array[t+2]=s,this}setXYZW(t,e,n,s,r){return t*=this.itemSize,this.normalized&&(e=this._normalize(e),n=this._normalize(n),s=this._normalize(s),r=this._normalize(r)),this.array[t+0]=e,this.array[t+1]=n,this.array[t+2]=s,this.array[t+3]=r,this}onUpload(t){return this.onUploadCallback=t,this}clone(){return new this.constructor(this.array,this.itemSize).copy(this)}toJSON(){let t={itemSize:this.itemSize,type:this.array.constructor.name,array:Array.from(this.array),normalized:this.normalized};return t.name=this.name,t.usage=this.usage,t.gpuType=this.gpuType,t}dispose(){this.dispatchEvent({type:"dispose"})}_denormalize(t){let e=this._normalizationScale;return e!==void 0?Math.max(t/e,-1):Cf(t,this.array)}_normalize(t){let e=this._normalizationScale;return e!==void 0?Math.round(t*e):Pf(t,this.array)}};var Ma=class extends Zn{constructor(t,e,n){super(new Uint16Array(t),e,n)}};var ba=class extends Zn{constructor(t,e,n){super(new Uint32Array(t),e,n)}};var li=class extends Zn{constructor(t,e,n){super(new Float32Array(t),e,n)}},Xg=new Ms,ha=new J,Yc=new J,Gs=class{constructor(t=new J,e=-1){this.isSphere=!0,this.center=t,this.radius=e}set(t,e){return this.center.copy(t),this.radius=e,this}setFromPoints(t,e){let n=this.center;e!==void 0?n.copy(e):Xg.setFromPoints(t).getCenter(n);let s=0;for(let r=0,a=t.length;r<a;r++)s=Math.max(s,n.distanceToSquared(t[r]));return this.radius=Math.sqrt(s),this}copy(t){return this.center.copy(t.center),this.radius=t.radius,this}isEmpty(){return this.radius<0}makeEmpty(){return this.center.set(0,0,0),this.radius=-1,this}containsPoint(t){return t.distanceToSquared(this.center)<=this.radius*this.radius}distanceToPoint(t){return t.distanceTo(this.center)-this.radius}intersectsSphere(t){let e=this.radius+t.radius;return t.center.distanceToSquared(this.center)<=e*e}intersectsBox(t){return t.intersectsSphere(this)}intersectsPlane(t){return Math.abs(t.distanceToPoint(this.center))<=this.radius}clampPoint(t,e){let n=this.center.distanceToSquared(t);return e.copy(t),n>this.radius*this.radius&&(e.sub(this.center).normalize(),e.multiplyScalar(this.radius).add(this.center)),e}getBoundingBox(t){return this.isEmpty()?(t.makeEmpty(),t):(t.set(this.center,this.center),t.expandByScalar(this.radius),t)}applyMatrix4(t){return this.center.applyMatrix4(t),this.radius=this.radius*t.getMaxScaleOnAxis(),this}translate(t){return this.center.add(t),this}expandByPoint(t){if(this.isEmpty())return this.center.copy(t),this.radius=0,this;ha.subVectors(t,this.center);let e=ha.lengthSq();if(e>this.radius*this.radius){let n=Math.sqrt(e),s=(n-this.radius)*.5;this.center.addScaledVector(ha,s/n),this.radius+=s}return this}union(t){return t.isEmpty()?this:this.isEmpty()?(this.copy(t),this):(this.center.equals(t.center)===!0?this.radius=Math.max(this.radius,t.radius):(Yc.subVectors(t.center,this.center).setLength(t.radius),this.expandByPoint(ha.copy(t.center).add(Yc)),this.expandByPoint(ha.copy(t.center).sub(Yc))),this)}equals(t){return t.center.equals(this.center)&&t.radius===this.radius}clone(){return new this.constructor().copy(this)}toJSON(){return{radius:this.radius,center:this.center.toArray()}}fromJSON(t){return this.radius=t.radius,this.center.fromArray(t.center),this}},qg=0,ai=new Xe,Zc=new jn,Mr=new J,qn=new Ms,ua=new Ms,Mn=new J,ci=class i extends yi{constructor(){super(),this.isBufferGeometry=!0,Object.defineProperty(this,"id",{value:qg++}),this.uuid=zr(),this.name="",this.type="BufferGeometry",this.index=null,this.indirect=null,this.indirectOffset=0,this.attributes={},this.morphAttributes={},this.morphTargetsRelative=!1,this.groups=[],this.boundingBox=null,this.boundingSphere=null,this.drawRange={start:0,count:1/0},this.userData={},this._transformed=!1}getIndex(){return this.index}setIndex(t){return Array.isArray(t)?this.index=new(_g(t)?ba:Ma)(t,1):this.index=t,this}setIndirect(t,e=0){return this.indirect=t,this.indirectOffset=e,this}getIndirect(){return this.indirect}getAttribute(t){return this.attributes[t]}setAttribute(t,e){return this.attributes[t]=e,this}deleteAttribute(t){return delete this.attributes[t],this}hasAttribute(t){return this.attributes[t]!==void 0}addGroup(t,e,n=0){this.groups.push({start:t,count:e,materialIndex:n})}clearGroups(){this.groups=[]}setDrawRange(t,e){this.drawRange.start=t,this.drawRange.count=e}applyMatrix4(t){let e=this.attributes.position;e!==void 0&&(e.applyMatrix4(t),e.needsUpdate=!0);let n=this.attributes.normal;if(n!==void 0){let r=new Qt().getNormalMatrix(t);n.applyNormalMatrix(r),n.needsUpdate=!0}let s=this.attributes.tangent;return s!==void 0&&(s.transformDirection(t),s.needsUpdate=!0),this.boundingBox!==null&&this.computeBoundingBox(),this.boundingSphere!==null&&this.computeBoundingSphere(),this._transformed=!0,this}applyQuaternion(t){return ai.makeRotationFromQuaternion(t),this.applyMatrix4(ai),this}rotateX(t){return ai.makeRotationX(t),this.applyMatrix4(ai),this}rotateY(t){return ai.makeRotationY(t),this.applyMatrix4(ai),this}rotateZ(t){return ai.makeRotationZ(t),this.applyMatrix4(ai),this}translate(t,e,n){return ai.makeTranslation(t,e,n),this.applyMatrix4(ai),this}scale(t,e,n){return ai.makeScale(t,e,n),this.applyMatrix4(ai),this}lookAt(t){return Zc.lookAt(t),Zc.updateMatrix(),this.applyMatrix4(Zc.matrix),this}center(){return this.computeBoundingBox(),this.boundingBox.getCenter(Mr).negate(),this.translate(Mr.x,Mr.y,Mr.z),this}setFromPoints(t){let e=this.getAttribute("position");if(e===void 0){let n=[];for(let s=0,r=t.length;s<r;s++){let a=t[s];n.push(a.x,a.y,a.z||0)}this.setAttribute("position",new li(n,3))}else{let n=Math.min(t.length,e.count);for(let s=0;s<n;s++){let r=t[s];e.setXYZ(s,r.x,r.y,r.z||0)}t.length>e.count&&$t("BufferGeometry: Buffer size too small for points data. Use .dispose() and create a new geometry."),e.needsUpdate=!0}return this}computeBoundingBox(){this.boundingBox===null&&(this.boundingBox=new Ms);let t=this.attributes.position,e=this.morphAttributes.position;if(t&&t.isGLBufferAttribute){jt("BufferGeometry.computeBoundingBox(): GLBufferAttribute requires a manual bounding box.",this),this.boundingBox.set(new J(-1/0,-1/0,-1/0),new J(1/0,1/0,1/0));return}if(t!==void 0){if(this.boundingBox.setFromBufferAttribute(t),e)for(let n=0,s=e.length;n<s;n++){let r=e[n];qn.setFromBufferAttribute(r),this.morphTargetsRelative?(Mn.addVectors(this.boundingBox.min,qn.min),this.boundingBox.expandByPoint(Mn),Mn.addVectors(this.boundingBox.max,qn.max),this.boundingBox.expandByPoint(Mn)):(this.boundingBox.expandByPoint(qn.min),this.boundingBox.expandByPoint(qn.max))}}else this.boundingBox.makeEmpty();(isNaN(this.boundingBox.min.x)||isNaN(this.boundingBox.min.y)||isNaN(this.boundingBox.min.z))&&jt('BufferGeometry.computeBoundingBox(): Computed min/max have NaN values. The "position" attribute is likely to have NaN values.',this)}computeBoundingSphere(){this.boundingSphere===null&&(this.boundingSphere=new Gs);let t=this.attributes.position,e=this.morphAttributes.position;if(t&&t.isGLBufferAttribute){jt("BufferGeometry.computeBoundingSphere(): GLBufferAttribute requires a manual bounding sphere.",this),this.boundingSphere.set(new J,1/0);return}if(t){let n=this.boundingSphere.center;if(qn.setFromBufferAttribute(t),e)for(let r=0,a=e.length;r<a;r++){let o=e[r];ua.setFromBufferAttribute(o),this.morphTargetsRelative?(Mn.addVectors(qn.min,ua.min),qn.expandByPoint(Mn),Mn.addVectors(qn.max,ua.max),qn.expandByPoint(Mn)):(qn.expandByPoint(ua.min),qn.expandByPoint(ua.max))}qn.getCenter(n);let s=0;for(let r=0,a=t.count;r<a;r++)Mn.fromBufferAttribute(t,r),s=Math.max(s,n.distanceToSquared(Mn));if(e)for(let r=0,a=e.length;r<a;r++){let o=e[r],l=this.morphTargetsRelative;for(let c=0,h=o.count;c<h;c++)Mn.fromBufferAttribute(o,c),l&&(Mr.fromBufferAttribute(t,c),Mn.add(Mr)),s=Math.max(s,n.distanceToSquared(Mn))}this.boundingSphere.radius=Math.sqrt(s),isNaN(this.boundingSphere.radius)&&jt('BufferGeometry.computeBoundingSphere(): Computed radius is NaN. The "position" attribute is likely to have NaN values.',this)}}computeTangents(){let t=this.index,e=this.attributes;if(t===null||e.position===void 0||e.normal===void 0||e.uv===void 0){jt("BufferGeometry: .computeTangents() failed. Missing required attributes (index, position, normal or uv)");return}let n=e.position,s=e.normal,r=e.uv,a=this.getAttribute("tangent");(a===void 0||a.count!==n.count)&&(a=new Zn(new Float32Array(4*n.count),4),this.setAttribute("tangent",a));let o=[],l=[],c=new Uint8Array(n.count);for(let z=0;z<n.count;z++)o[z]=new J,l[z]=new J;let h=new J,d=new J,u=new J,f=new re,x=new re,w=new re,m=new J,p=new J;function M(z,N,L){c[z]=c[N]=c[L]=1,h.fromBufferAttribute(n,z),d.fromBufferAttribute(n,N),u.fromBufferAttribute(n,L),f.fromBufferAttribute(r,z),x.fromBufferAttribute(r,N),w.fromBufferAttribute(r,L),d.sub(h),u.sub(h),x.sub(f),w.sub(f);let G=1/(x.x*w.y-w.x*x.y);isFinite(G)&&(m.copy(d).multiplyScalar(w.y).addScaledVector(u,-x.y).multiplyScalar(G),p.copy(u).multiplyScalar(x.x).addScaledVector(d,-w.x).multiplyScalar(G),o[z].add(m),o[N].add(m),o[L].add(m),l[z].add(p),l[N].add(p),l[L].add(p))}let C=this.groups;C.length===0&&(C=[{start:0,count:t.count}]);for(let z=0,N=C.length;z<N;++z){let L=C[z],G=L.start,H=L.count;for(let D=G,V=G+H;D<V;D+=3)M(t.getX(D+0),t.getX(D+1),t.getX(D+2))}let b=new J,I=new J,T=new J,_=new J;function E(z){T.fromBufferAttribute(s,z),_.copy(T);let N=o[z];b.copy(N),b.sub(T.multiplyScalar(T.dot(N))).normalize(),I.crossVectors(_,N);let G=I.dot(l[z])<0?-1:1;a.setXYZW(z,b.x,b.y,b.z,G)}for(let z=0,N=n.count;z<N;++z)c[z]&&E(z);this._transformed=!0}computeVertexNormals(){let t=this.index,e=this.getAttribute("position");if(e!==void 0){let n=this.getAttribute("normal");if(n===void 0||n.count!==e.count)n=new Zn(new Float32Array(e.count*3),3),this.setAttribute("normal",n);else for(let u=0,f=n.count;u<f;u++)n.setXYZ(u,0,0,0);let s=new J,r=new J,a=new J,o=new J,l=new J,c=new J,h=new J,d=new J;if(t)for(let u=0,f=t.count;u<f;u+=3){let x=t.getX(u+0),w=t.getX(u+1),m=t.getX(u+2);s.fromBufferAttribute(e,x),r.fromBufferAttribute(e,w),a.fromBufferAttribute(e,m),h.subVectors(a,r),d.subVectors(s,r),h.cross(d),o.fromBufferAttribute(n,x),l.fromBufferAttribute(n,w),c.fromBufferAttribute(n,m),o.add(h),l.add(h),c.add(h),n.setXYZ(x,o.x,o.y,o.z),n.setXYZ(w,l.x,l.y,l.z),n.setXYZ(m,c.x,c.y,c.z)}else for(let u=0,f=e.count;u<f;u+=3)s.fromBufferAttribute(e,u+0),r.fromBufferAttribute(e,u+1),a.fromBufferAttribute(e,u+2),h.subVectors(a,r),d.subVectors(s,r),h.cross(d),n.setXYZ(u+0,h.x,h.y,h.z),n.setXYZ(u+1,h.x,h.y,h.z),n.setXYZ(u+2,h.x,h.y,h.z);this.normalizeNormals(),n.needsUpdate=!0}}normalizeNormals(){let t=this.attributes.normal;for(let e=0,n=t.count;e<n;e++)Mn.fromBufferAttribute(t,e),Mn.normalize(),t.setXYZ(e,Mn.x,Mn.y,Mn.z)}toNonIndexed(){function t(o,l){let c=o.array,h=o.itemSize,d=o.normalized,u=new c.constructor(l.length*h),f=0,x=0;for(let w=0,m=l.length;w<m;w++){o.isInterleavedBufferAttribute?f=l[w]*o.data.stride+o.offset:f=l[w]*h;for(let p=0;p<h;p++)u[x++]=c[f++]}return new Zn(u,h,d)}if(this.index===null)return $t("BufferGeometry.toNonIndexed(): BufferGeometry is already non-indexed."),this;let e=new i,n=this.index.array,s=this.attributes;for(let o in s){let l=s[o],c=t(l,n);e.setAttribute(o,c)}let r=this.morphAttributes;for(let o in r){let l=[],c=r[o];for(let h=0,d=c.length;h<d;h++){let u=c[h],f=t(u,n);l.push(f)}e.morphAttributes[o]=l}e.morphTargetsRelative=this.morphTargetsRelative;let a=this.groups;for(let o=0,l=a.length;o<l;o++){let c=a[o];e.addGroup(c.start,c.count,c.materialIndex)}return e}toJSON(){let t={metadata:{version:4.7,type:"BufferGeometry",generator:"BufferGeometry.toJSON"}};if(t.uuid=this.uuid,t.type=this.parameters!==void 0&&this._transformed===!0?"BufferGeometry":this.type,t.name=this.name,Object.keys(this.userData).length>0&&(t.userData=this.userData),this.parameters!==void 0&&this._transformed!==!0){let l=this.parameters;for(let c in l)l[c]!==void 0&&(t[c]=l[c]);return t}t.data={attributes:{}};let e=this.index;e!==null&&(t.data.index={type:e.array.constructor.name,array:Array.prototype.slice.call(e.array)});let n=this.attributes;for(let l in n){let c=n[l];t.data.attributes[l]=c.toJSON(t.data)}let s={},r=!1;for(let l in this.morphAttributes){let c=this.morphAttributes[l],h=[];for(let d=0,u=c.length;d<u;d++){let f=c[d];h.push(f.toJSON(t.data))}h.length>0&&(s[l]=h,r=!0)}r&&(t.data.morphAttributes=s,t.data.morphTargetsRelative=this.morphTargetsRelative);let a=this.groups;a.length>0&&(t.data.groups=JSON.parse(JSON.stringify(a)));let o=this.boundingSphere;return o!==null&&(t.data.boundingSphere=o.toJSON()),t}clone(){return new this.constructor().copy(this)}copy(t){this.index=null,this.attributes={},this.morphAttributes={},this.groups=[],this.boundingBox=null,this.boundingSphere=null;let e={};this.name=t.name;let n=t.index;n!==null&&this.setIndex(n.clone());let s=t.attributes;for(let c in s){let h=s[c];this.setAttribute(c,h.clone(e))}let r=t.morphAttributes;for(let c in r){let h=[],d=r[c];for(let u=0,f=d.length;u<f;u++)h.push(d[u].clone(e));this.morphAttributes[c]=h}this.morphTargetsRelative=t.morphTargetsRelative;let a=t.groups;for(let c=0,h=a.length;c<h;c++){let d=a[c];this.addGroup(d.start,d.count,d.materialIndex)}let o=t.boundingBox;o!==null&&(this.boundingBox=o.clone());let l=t.boundingSphere;return l!==null&&(this.boundingSphere=l.clone()),this.drawRange.start=t.drawRange.start,this.drawRange.count=t.drawRange.count,this.userData=t.userData,this._transformed=t._transformed,this}dispose(){this.dispatchEvent({type:"dispose"})}};var Jc=new J,$g=new J,Yg=new Qt,Yn=class{constructor(t=new J(1,0,0),e=0){this.isPlane=!0,this.normal=t,this.constant=e}set(t,e){return this.normal.copy(t),this.constant=e,this}setComponents(t,e,n,s){return this.normal.set(t,e,n),this.constant=s,this}setFromNormalAndCoplanarPoint(t,e){return this.normal.copy(t),this.constant=-e.dot(this.normal),this}setFromCoplanarPoints(t,e,n){let s=Jc.subVectors(n,e).cross($g.subVectors(t,e)).normalize();return this.setFromNormalAndCoplanarPoint(s,t),this}copy(t){return this.normal.copy(t.normal),this.constant=t.constant,this}normalize(){let t=1/this.normal.length();return this.normal.multiplyScalar(t),this.constant*=t,this}negate(){return this.constant*=-1,this.normal.negate(),this}distanceToPoint(t){return this.normal.dot(t)+this.constant}distanceToSphere(t){return this.distanceToPoint(t.center)-t.radius}projectPoint(t,e){return e.copy(t).addScaledVector(this.normal,-this.distanceToPoint(t))}intersectLine(t,e,n=!0){let s=t.delta(Jc),r=this.normal.dot(s);if(r===0)return this.distanceToPoint(t.start)===0?e.copy(t.start):null;let a=-(t.start.dot(this.normal)+this.constant)/r;return n===!0&&(a<0||a>1)?null:e.copy(t.start).addScaledVector(s,a)}intersectsLine(t){let e=this.distanceToPoint(t.start),n=this.distanceToPoint(t.end);return e<0&&n>0||n<0&&e>0}intersectsBox(t){return t.intersectsPlane(this)}intersectsSphere(t){return t.intersectsPlane(this)}coplanarPoint(t){return t.copy(this.normal).multiplyScalar(-this.constant)}applyMatrix4(t,e){let n=e||Yg.getNormalMatrix(t),s=this.coplanarPoint(Jc).applyMatrix4(t),r=this.normal.applyMatrix3(n).normalize();return this.constant=-s.dot(r),this}translate(t){return this.constant-=t.dot(this.normal),this}equals(t){return t.normal.equals(this.normal)&&t.constant===this.constant}clone(){return new this.constructor().copy(this)}toJSON(){return{normal:this.normal.toArray(),constant:this.constant}}fromJSON(t){return this.normal.fromArray(t.normal),this.constant=t.constant,this}},Zg=0,bs=class extends yi{constructor(){super(),this.isMaterial=!0,Object.defineProperty(this,"id",{value:Zg++}),this.uuid=zr(),this.name="",this.type="Material",this.blending=Or,this.side=Cs,this.vertexColors=!1,this.opacity=1,this.transparent=!1,this.alphaHash=!1,this.blendSrc=hh,this.blendDst=uh,this.blendEquation=qs,this.blendSrcAlpha=null,this.blendDstAlpha=null,this.blendEquationAlpha=null,this.blendColor=new ye(0,0,0),this.blendAlpha=0,this.depthFunc=Ar,this.depthTest=!0,this.depthWrite=!0,this.stencilWriteMask=255,this.stencilFunc=xf,this.stencilRef=0,this.stencilFuncMask=255,this.stencilFail=To,this.stencilZFail=To,this.stencilZPass=To,this.stencilWrite=!1,this.clippingPlanes=null,this.clipIntersection=!1,this.clipShadows=!1,this.shadowSide=null,this.colorWrite=!0,this.precision=null,this.polygonOffset=!1,this.polygonOffsetFactor=0,this.polygonOffsetUnits=0,this.dithering=!1,this.alphaToCoverage=!1,this.premultipliedAlpha=!1,this.forceSinglePass=!1,this.allowOverride=!0,this.visible=!0,this.toneMapped=!0,this.userData={},this.version=0,this._alphaTest=0}get alphaTest(){return this._alphaTest}set alphaTest(t){this._alphaTest>0!=t>0&&this.version++,this._alphaTest=t}onBeforeRender(){}onBeforeCompile(){}customProgramCacheKey(){return this.onBeforeCompile.toString()}setValues(t){if(t!==void 0)for(let e in t){let n=t[e];if(n===void 0){$t(`Material: parameter '${e}' has value of undefined.`);continue}let s=this[e];if(s===void 0){$t(`Material: '${e}' is not a property of THREE.${this.type}.`);continue}s&&s.isColor?s.set(n):s&&s.isVector2&&n&&n.isVector2||s&&s.isEuler&&n&&n.isEuler||s&&s.isVector3&&n&&n.isVector3?s.copy(n):this[e]=n}}toJSON(t){let e=t===void 0||typeof t=="string";e&&(t={textures:{},images:{}});let n={metadata:{version:4.7,type:"Material",generator:"Material.toJSON"}};n.uuid=this.uuid,n.type=this.type,n.blending=this.blending,n.side=this.side,n.shadowSide=this.shadowSide,n.vertexColors=this.vertexColors,n.opacity=this.opacity,n.transparent=this.transparent,n.blendSrc=this.blendSrc,n.blendDst=this.blendDst,n.blendEquation=this.blendEquation,n.blendSrcAlpha=this.blendSrcAlpha,n.blendDstAlpha=this.blendDstAlpha,n.blendEquationAlpha=this.blendEquationAlpha,n.blendColor=this.blendColor.getHex(),n.blendAlpha=this.blendAlpha,n.depthFunc=this.depthFunc,n.depthTest=this.depthTest,n.depthWrite=this.depthWrite,n.colorWrite=this.colorWrite,n.clipIntersection=this.clipIntersection,n.clipShadows=this.clipShadows,n.stencilWriteMask=this.stencilWriteMask,n.stencilFunc=this.stencilFunc,n.stencilRef=this.stencilRef,n.stencilFuncMask=this.stencilFuncMask,n.stencilFail=this.stencilFail,n.stencilZFail=this.stencilZFail,n.stencilZPass=this.stencilZPass,n.stencilWrite=this.stencilWrite,n.polygonOffset=this.polygonOffset,n.polygonOffsetFactor=this.polygonOffsetFactor,n.polygonOffsetUnits=this.polygonOffsetUnits,n.dithering=this.dithering,n.alphaTest=this.alphaTest,n.alphaHash=this.alphaHash,n.alphaToCoverage=this.alphaToCoverage,n.premultipliedAlpha=this.premultipliedAlpha,n.forceSinglePass=this.forceSinglePass,n.allowOverride=this.allowOverride,n.visible=this.visible,n.toneMapped=this.toneMapped,n.name=this.name,this.color&&this.color.isColor&&(n.color=this.color.getHex()),this.roughness!==void 0&&(n.roughness=this.roughness),this.metalness!==void 0&&(n.metalness=this.metalness),this.sheen!==void 0&&(n.sheen=this.sheen),this.sheenColor&&this.sheenColor.isColor&&(n.sheenColor=this.sheenColor.getHex()),this.sheenRoughness!==void 0&&(n.sheenRoughness=this.sheenRoughness),this.emissive&&this.emissive.isColor&&(n.emissive=this.emissive.getHex()),this.emissiveIntensity!==void 0&&(n.emissiveIntensity=this.emissiveIntensity),this.specular&&this.specular.isColor&&(n.specular=this.specular.getHex()),this.specularIntensity!==void 0&&(n.specularIntensity=this.specularIntensity),this.specularColor&&this.specularColor.isColor&&(n.specularColor=this.specularColor.getHex()),this.shininess!==void 0&&(n.shininess=this.shininess),this.clearcoat!==void 0&&(n.clearcoat=this.clearcoat),this.clearcoatRoughness!==void 0&&(n.clearcoatRoughness=this.clearcoatRoughness),this.diffuseRoughness!==void 0&&(n.diffuseRoughness=this.diffuseRoughness),this.diffuseRoughnessMap&&this.diffuseRoughnessMap.isTexture&&(n.diffuseRoughnessMap=this.diffuseRoughnessMap.toJSON(t).uuid),this.clearcoatMap&&this.clearcoatMap.isTexture&&(n.clearcoatMap=this.clearcoatMap.toJSON(t).uuid),this.clearcoatRoughnessMap&&this.clearcoatRoughnessMap.isTexture&&(n.clearcoatRoughnessMap=this.clearcoatRoughnessMap.toJSON(t).uuid),this.clearcoatNormalMap&&this.clearcoatNormalMap.isTexture&&(n.clearcoatNormalMap=this.clearcoatNormalMap.toJSON(t).uuid,n.clearcoatNormalScale=this.clearcoatNormalScale.toArray()),this.sheenColorMap&&this.sheenColorMap.isTexture&&(n.sheenColorMap=this.sheenColorMap.toJSON(t).uuid),this.sheenRoughnessMap&&this.sheenRoughnessMap.isTexture&&(n.sheenRoughnessMap=this.sheenRoughnessMap.toJSON(t).uuid),this.dispersion!==void 0&&(n.dispersion=this.dispersion),this.retroreflectivity!==void 0&&(n.retroreflectivity=this.retroreflectivity),this.iridescence!==void 0&&(n.iridescence=this.iridescence),this.iridescenceIOR!==void 0&&(n.iridescenceIOR=this.iridescenceIOR),this.iridescenceThicknessMinimum!==void 0&&(n.iridescenceThicknessMinimum=this.iridescenceThicknessMinimum),this.iridescenceThicknessMaximum!==void 0&&(n.iridescenceThicknessMaximum=this.iridescenceThicknessMaximum),this.iridescenceMap&&this.iridescenceMap.isTexture&&(n.iridescenceMap=this.iridescenceMap.toJSON(t).uuid),this.iridescenceThicknessMap&&this.iridescenceThicknessMap.isTexture&&(n.iridescenceThicknessMap=this.iridescenceThicknessMap.toJSON(t).uuid),this.anisotropy!==void 0&&(n.anisotropy=this.anisotropy),this.anisotropyRotation!==void 0&&(n.anisotropyRotation=this.anisotropyRotation),this.anisotropyMap&&this.anisotropyMap.isTexture&&(n.anisotropyMap=this.anisotropyMap.toJSON(t).uuid),this.map&&this.map.isTexture&&(n.map=this.map.toJSON(t).uuid),this.matcap&&this.matcap.isTexture&&(n.matcap=this.matcap.toJSON(t).uuid),this.alphaMap&&this.alphaMap.isTexture&&(n.alphaMap=this.alphaMap.toJSON(t).uuid),this.lightMap&&this.lightMap.isTexture&&(n.lightMap=this.lightMap.toJSON(t).uuid,n.lightMapIntensity=this.lightMapIntensity),this.aoMap&&this.aoMap.isTexture&&(n.aoMap=this.aoMap.toJSON(t).uuid,n.aoMapIntensity=this.aoMapIntensity),this.bumpMap&&this.bumpMap.isTexture&&(n.bumpMap=this.bumpMap.toJSON(t).uuid,n.bumpScale=this.bumpScale),this.normalMap&&this.normalMap.isTexture&&(n.normalMap=this.normalMap.toJSON(t).uuid,n.normalMapType=this.normalMapType,n.normalScale=this.normalScale.toArray()),this.displacementMap&&this.displacementMap.isTexture&&(n.displacementMap=this.displacementMap.toJSON(t).uuid,n.displacementScale=this.displacementScale,n.displacementBias=this.displacementBias),this.roughnessMap&&this.roughnessMap.isTexture&&(n.roughnessMap=this.roughnessMap.toJSON(t).uuid),this.metalnessMap&&this.metalnessMap.isTexture&&(n.metalnessMap=this.metalnessMap.toJSON(t).uuid),this.emissiveMap&&this.emissiveMap.isTexture&&(n.emissiveMap=this.emissiveMap.toJSON(t).uuid),this.specularMap&&this.specularMap.isTexture&&(n.specularMap=this.specularMap.toJSON(t).uuid),this.specularIntensityMap&&this.specularIntensityMap.isTexture&&(n.specularIntensityMap=this.specularIntensityMap.toJSON(t).uuid),this.specularColorMap&&this.specularColorMap.isTexture&&(n.specularColorMap=this.specularColorMap.toJSON(t).uuid),this.envMap&&this.envMap.isTexture&&(n.envMap=this.envMap.toJSON(t).uuid,this.combine!==void 0&&(n.combine=this.combine)),this.envMapRotation!==void 0&&(n.envMapRotation=this.envMapRotation.toArray()),this.envMapIntensity!==void 0&&(n.envMapIntensity=this.envMapIntensity),this.reflectivity!==void 0&&(n.reflectivity=this.reflectivity),this.refractionRatio!==void 0&&(n.refractionRatio=this.refractionRatio),this.gradientMap&&this.gradientMap.isTexture&&(n.gradientMap=this.gradientMap.toJSON(t).uuid),this.transmission!==void 0&&(n.transmission=this.transmission),this.transmissionMap&&this.transmissionMap.isTexture&&(n.transmissionMap=this.transmissionMap.toJSON(t).uuid),this.thickness!==void 0&&(n.thickness=this.thickness),this.thicknessMap&&this.thicknessMap.isTexture&&(n.thicknessMap=this.thicknessMap.toJSON(t).uuid),this.attenuationDistance!==void 0&&(n.attenuationDistance=this.attenuationDistance),this.attenuationColor!==void 0&&(n.attenuationColor=this.attenuationColor.getHex()),this.size!==void 0&&(n.size=this.size),this.sizeAttenuation!==void 0&&(n.sizeAttenuation=this.sizeAttenuation),Array.isArray(this.clippingPlanes)&&this.clippingPlanes.length>0&&(n.clippingPlanes=this.clippingPlanes.map(r=>r.toJSON())),this.rotation!==void 0&&(n.rotation=this.rotation),this.depthPacking!==void 0&&(n.depthPacking=this.depthPacking),this.linewidth!==void 0&&(n.linewidth=this.linewidth),this.linecap!==void 0&&(n.linecap=this.linecap),this.linejoin!==void 0&&(n.linejoin=this.linejoin),this.dashSize!==void 0&&(n.dashSize=this.dashSize),this.gapSize!==void 0&&(n.gapSize=this.gapSize),this.scale!==void 0&&(n.scale=this.scale),this.wireframe!==void 0&&(n.wireframe=this.wireframe),this.wireframeLinewidth!==void 0&&(n.wireframeLinewidth=this.wireframeLinewidth),this.wireframeLinecap!==void 0&&(n.wireframeLinecap=this.wireframeLinecap),this.wireframeLinejoin!==void 0&&(n.wireframeLinejoin=this.wireframeLinejoin),this.flatShading!==void 0&&(n.flatShading=this.flatShading),this.fog!==void 0&&(n.fog=this.fog),Object.keys(this.userData).length>0&&(n.userData=this.userData);function s(r){let a=[];for(let o in r){let l=r[o];delete l.metadata,a.push(l)}return a}if(e){let r=s(t.textures),a=s(t.images);r.length>0&&(n.textures=r),a.length>0&&(n.images=a)}return n}fromJSON(t,e){if(t.uuid!==void 0&&(this.uuid=t.uuid),t.name!==void 0&&(this.name=t.name),t.color!==void 0&&this.color!==void 0&&this.color.setHex(t.color),t.roughness!==void 0&&(this.roughness=t.roughness),t.metalness!==void 0&&(this.metalness=t.metalness),t.sheen!==void 0&&(this.sheen=t.sheen),t.sheenColor!==void 0&&(this.sheenColor=new ye().setHex(t.sheenColor)),t.sheenRoughness!==void 0&&(this.sheenRoughness=t.sheenRoughness),t.emissive!==void 0&&this.emissive!==void 0&&this.emissive.setHex(t.emissive),t.specular!==void 0&&this.specular!==void 0&&this.specular.setHex(t.specular),t.specularIntensity!==void 0&&(this.specularIntensity=t.specularIntensity),t.specularColor!==void 0&&this.specularColor!==void 0&&this.specularColor.setHex(t.specularColor),t.shininess!==void 0&&(this.shininess=t.shininess),t.clearcoat!==void 0&&(this.clearcoat=t.clearcoat),t.clearcoatRoughness!==void 0&&(this.clearcoatRoughness=t.clearcoatRoughness),t.diffuseRoughness!==void 0&&(this.diffuseRoughness=t.diffuseRoughness),t.dispersion!==void 0&&(this.dispersion=t.dispersion),t.retroreflectivity!==void 0&&(this.retroreflectivity=t.retroreflectivity),t.iridescence!==void 0&&(this.iridescence=t.iridescence),t.iridescenceIOR!==void 0&&(this.iridescenceIOR=t.iridescenceIOR),t.iridescenceThicknessMinimum!==void 0&&(this.iridescenceThicknessMinimum=t.iridescenceThicknessMinimum),t.iridescenceThicknessMaximum!==void 0&&(this.iridescenceThicknessMaximum=t.iridescenceThicknessMaximum),t.iridescenceThicknessRange!==void 0&&(this.iridescenceThicknessMinimum=t.iridescenceThicknessRange[0],this.iridescenceThicknessMaximum=t.iridescenceThicknessRange[1]),t.transmission!==void 0&&(this.transmission=t.transmission),t.thickness!==void 0&&(this.thickness=t.thickness),t.attenuationDistance!==void 0&&(this.attenuationDistance=t.attenuationDistance),t.attenuationColor!==void 0&&this.attenuationColor!==void 0&&this.attenuationColor.setHex(t.attenuationColor),t.anisotropy!==void 0&&(this.anisotropy=t.anisotropy),t.anisotropyRotation!==void 0&&(this.anisotropyRotation=t.anisotropyRotation),t.fog!==void 0&&(this.fog=t.fog),t.flatShading!==void 0&&(this.flatShading=t.flatShading),t.blending!==void 0&&(this.blending=t.blending),t.combine!==void 0&&(this.combine=t.combine),t.side!==void 0&&(this.side=t.side),t.shadowSide!==void 0&&(this.shadowSide=t.shadowSide),t.opacity!==void 0&&(this.opacity=t.opacity),t.transparent!==void 0&&(this.transparent=t.transparent),t.alphaTest!==void 0&&(this.alphaTest=t.alphaTest),t.alphaHash!==void 0&&(this.alphaHash=t.alphaHash),t.depthFunc!==void 0&&(this.depthFunc=t.depthFunc),t.depthTest!==void 0&&(this.depthTest=t.depthTest),t.depthWrite!==void 0&&(this.depthWrite=t.depthWrite),t.colorWrite!==void 0&&(this.colorWrite=t.colorWrite),t.clippingPlanes!==void 0&&(this.clippingPlanes=t.clippingPlanes.map(n=>new Yn().fromJSON(n))),t.clipIntersection!==void 0&&(this.clipIntersection=t.clipIntersection),t.clipShadows!==void 0&&(this.clipShadows=t.clipShadows),t.depthPacking!==void 0&&(this.depthPacking=t.depthPacking),t.blendSrc!==void 0&&(this.blendSrc=t.blendSrc),t.blendDst!==void 0&&(this.blendDst=t.blendDst),t.blendEquation!==void 0&&(this.blendEquation=t.blendEquation),t.blendSrcAlpha!==void 0&&(this.blendSrcAlpha=t.blendSrcAlpha),t.blendDstAlpha!==void 0&&(this.blendDstAlpha=t.blendDstAlpha),t.blendEquationAlpha!==void 0&&(this.blendEquationAlpha=t.blendEquationAlpha),t.blendColor!==void 0&&this.blendColor!==void 0&&this.blendColor.setHex(t.blendColor),t.blendAlpha!==void 0&&(this.blendAlpha=t.blendAlpha),t.stencilWriteMask!==void 0&&(this.stencilWriteMask=t.stencilWriteMask),t.stencilFunc!==void 0&&(this.stencilFunc=t.stencilFunc),t.stencilRef!==void 0&&(this.stencilRef=t.stencilRef),t.stencilFuncMask!==void 0&&(this.stencilFuncMask=t.stencilFuncMask),t.stencilFail!==void 0&&(this.stencilFail=t.stencilFail),t.stencilZFail!==void 0&&(this.stencilZFail=t.stencilZFail),t.stencilZPass!==void 0&&(this.stencilZPass=t.stencilZPass),t.stencilWrite!==void 0&&(this.stencilWrite=t.stencilWrite),t.wireframe!==void 0&&(this.wireframe=t.wireframe),t.wireframeLinewidth!==void 0&&(this.wireframeLinewidth=t.wireframeLinewidth),t.wireframeLinecap!==void 0&&(this.wireframeLinecap=t.wireframeLinecap),t.wireframeLinejoin!==void 0&&(this.wireframeLinejoin=t.wireframeLinejoin),t.rotation!==void 0&&(this.rotation=t.rotation),t.linewidth!==void 0&&(this.linewidth=t.linewidth),t.linecap!==void 0&&(this.linecap=t.linecap),t.linejoin!==void 0&&(this.linejoin=t.linejoin),t.dashSize!==void 0&&(this.dashSize=t.dashSize),t.gapSize!==void 0&&(this.gapSize=t.gapSize),t.scale!==void 0&&(this.scale=t.scale),t.polygonOffset!==void 0&&(this.polygonOffset=t.polygonOffset),t.polygonOffsetFactor!==void 0&&(this.polygonOffsetFactor=t.polygonOffsetFactor),t.polygonOffsetUnits!==void 0&&(this.polygonOffsetUnits=t.polygonOffsetUnits),t.dithering!==void 0&&(this.dithering=t.dithering),t.alphaToCoverage!==void 0&&(this.alphaToCoverage=t.alphaToCoverage),t.premultipliedAlpha!==void 0&&(this.premultipliedAlpha=t.premultipliedAlpha),t.forceSinglePass!==void 0&&(this.forceSinglePass=t.forceSinglePass),t.allowOverride!==void 0&&(this.allowOverride=t.allowOverride),t.visible!==void 0&&(this.visible=t.visible),t.toneMapped!==void 0&&(this.toneMapped=t.toneMapped),t.userData!==void 0&&(this.userData=t.userData),t.vertexColors!==void 0&&(typeof t.vertexColors=="number"?this.vertexColors=t.vertexColors>0:this.vertexColors=t.vertexColors),t.size!==void 0&&(this.size=t.size),t.sizeAttenuation!==void 0&&(this.sizeAttenuation=t.sizeAttenuation),t.map!==void 0&&(this.map=e[t.map]||null),t.matcap!==void 0&&(this.matcap=e[t.matcap]||null),t.alphaMap!==void 0&&(this.alphaMap=e[t.alphaMap]||null),t.bumpMap!==void 0&&(this.bumpMap=e[t.bumpMap]||null),t.bumpScale!==void 0&&(this.bumpScale=t.bumpScale),t.normalMap!==void 0&&(this.normalMap=e[t.normalMap]||null),t.normalMapType!==void 0&&(this.normalMapType=t.normalMapType),t.normalScale!==void 0){let n=t.normalScale;Array.isArray(n)===!1&&(n=[n,n]),this.normalScale=new re().fromArray(n)}return t.displacementMap!==void 0&&(this.displacementMap=e[t.displacementMap]||null),t.displacementScale!==void 0&&(this.displacementScale=t.displacementScale),t.displacementBias!==void 0&&(this.displacementBias=t.displacementBias),t.roughnessMap!==void 0&&(this.roughnessMap=e[t.roughnessMap]||null),t.metalnessMap!==void 0&&(this.metalnessMap=e[t.metalnessMap]||null),t.emissiveMap!==void 0&&(this.emissiveMap=e[t.emissiveMap]||null),t.emissiveIntensity!==void 0&&(this.emissiveIntensity=t.emissiveIntensity),t.specularMap!==void 0&&(this.specularMap=e[t.specularMap]||null),t.specularIntensityMap!==void 0&&(this.specularIntensityMap=e[t.specularIntensityMap]||null),t.specularColorMap!==void 0&&(this.specularColorMap=e[t.specularColorMap]||null),t.envMap!==void 0&&(this.envMap=e[t.envMap]||null),t.envMapRotation!==void 0&&this.envMapRotation.fromArray(t.envMapRotation),t.envMapIntensity!==void 0&&(this.envMapIntensity=t.envMapIntensity),t.reflectivity!==void 0&&(this.reflectivity=t.reflectivity),t.refractionRatio!==void 0&&(this.refractionRatio=t.refractionRatio),t.lightMap!==void 0&&(this.lightMap=e[t.lightMap]||null),t.lightMapIntensity!==void 0&&(this.lightMapIntensity=t.lightMapIntensity),t.aoMap!==void 0&&(this.aoMap=e[t.aoMap]||null),t.aoMapIntensity!==void 0&&(this.aoMapIntensity=t.aoMapIntensity),t.gradientMap!==void 0&&(this.gradientMap=e[t.gradientMap]||null),t.clearcoatMap!==void 0&&(this.clearcoatMap=e[t.clearcoatMap]||null),t.clearcoatRoughnessMap!==void 0&&(this.clearcoatRoughnessMap=e[t.clearcoatRoughnessMap]||null),t.clearcoatNormalMap!==void 0&&(this.clearcoatNormalMap=e[t.clearcoatNormalMap]||null),t.clearcoatNormalScale!==void 0&&(this.clearcoatNormalScale=new re().fromArray(t.clearcoatNormalScale)),t.diffuseRoughnessMap!==void 0&&(this.diffuseRoughnessMap=e[t.diffuseRoughnessMap]||null),t.iridescenceMap!==void 0&&(this.iridescenceMap=e[t.iridescenceMap]||null),t.iridescenceThicknessMap!==void 0&&(this.iridescenceThicknessMap=e[t.iridescenceThicknessMap]||null),t.transmissionMap!==void 0&&(this.transmissionMap=e[t.transmissionMap]||null),t.thicknessMap!==void 0&&(this.thicknessMap=e[t.thicknessMap]||null),t.anisotropyMap!==void 0&&(this.anisotropyMap=e[t.anisotropyMap]||null),t.sheenColorMap!==void 0&&(this.sheenColorMap=e[t.sheenColorMap]||null),t.sheenRoughnessMap!==void 0&&(this.sheenRoughnessMap=e[t.sheenRoughnessMap]||null),this}clone(){return new this.constructor().copy(this)}copy(t){this.name=t.name,this.blending=t.blending,this.side=t.side,this.vertexColors=t.vertexColors,this.opacity=t.opacity,this.transparent=t.transparent,this.blendSrc=t.blendSrc,this.blendDst=t.blendDst,this.blendEquation=t.blendEquation,this.blendSrcAlpha=t.blendSrcAlpha,this.blendDstAlpha=t.blendDstAlpha,this.blendEquationAlpha=t.blendEquationAlpha,this.blendColor.copy(t.blendColor),this.blendAlpha=t.blendAlpha,this.depthFunc=t.depthFunc,this.depthTest=t.depthTest,this.depthWrite=t.depthWrite,this.stencilWriteMask=t.stencilWriteMask,this.stencilFunc=t.stencilFunc,this.stencilRef=t.stencilRef,this.stencilFuncMask=t.stencilFuncMask,this.stencilFail=t.stencilFail,this.stencilZFail=t.stencilZFail,this.stencilZPass=t.stencilZPass,this.stencilWrite=t.stencilWrite;let e=t.clippingPlanes,n=null;if(e!==null){let s=e.length;n=new Array(s);for(let r=0;r!==s;++r)n[r]=e[r].clone()}return this.clippingPlanes=n,this.clipIntersection=t.clipIntersection,this.clipShadows=t.clipShadows,this.shadowSide=t.shadowSide,this.colorWrite=t.colorWrite,this.precision=t.precision,this.polygonOffset=t.polygonOffset,this.polygonOffsetFactor=t.polygonOffsetFactor,this.polygonOffsetUnits=t.polygonOffsetUnits,this.dithering=t.dithering,this.alphaTest=t.alphaTest,this.alphaHash=t.alphaHash,this.alphaToCoverage=t.alphaToCoverage,this.premultipliedAlpha=t.premultipliedAlpha,this.forceSinglePass=t.forceSinglePass,this.allowOverride=t.allowOverride,this.visible=t.visible,this.toneMapped=t.toneMapped,this.userData=JSON.parse(JSON.stringify(t.userData)),this}dispose(){this.dispatchEvent({type:"dispose"})}set needsUpdate(t){t===!0&&this.version++}};var Qi=new J,Kc=new J,co=new J,ho=new J,Hs=class{constructor(t=new J,e=new J(0,0,-1)){this.origin=t,this.direction=e}set(t,e){return this.origin.copy(t),this.direction.copy(e),this}copy(t){return this.origin.copy(t.origin),this.direction.copy(t.direction),this}at(t,e){return e.copy(this.origin).addScaledVector(this.direction,t)}lookAt(t){return this.direction.copy(t).sub(this.origin).normalize(),this}recast(t){return this.origin.copy(this.at(t,Qi)),this}closestPointToPoint(t,e){e.subVectors(t,this.origin);let n=e.dot(this.direction);return n<0?e.copy(this.origin):e.copy(this.origin).addScaledVector(this.direction,n)}distanceToPoint(t){return Math.sqrt(this.distanceSqToPoint(t))}distanceSqToPoint(t){let e=Qi.subVectors(t,this.origin).dot(this.direction);return e<0?this.origin.distanceToSquared(t):(Qi.copy(this.origin).addScaledVector(this.direction,e),Qi.distanceToSquared(t))}distanceSqToSegment(t,e,n,s){Kc.copy(t).add(e).multiplyScalar(.5),co.copy(e).sub(t).normalize(),ho.copy(this.origin).sub(Kc);let r=t.distanceTo(e)*.5,a=-this.direction.dot(co),o=ho.dot(this.direction),l=-ho.dot(co),c=ho.lengthSq(),h=Math.abs(1-a*a),d,u,f,x;if(h>0)if(d=a*l-o,u=a*o-l,x=r*h,d>=0)if(u>=-x)if(u<=x){let w=1/h;d*=w,u*=w,f=d*(d+a*u+2*o)+u*(a*d+u+2*l)+c}else u=r,d=Math.max(0,-(a*u+o)),f=-d*d+u*(u+2*l)+c;else u=-r,d=Math.max(0,-(a*u+o)),f=-d*d+u*(u+2*l)+c;else u<=-x?(d=Math.max(0,-(-a*r+o)),u=d>0?-r:Math.min(Math.max(-r,-l),r),f=-d*d+u*(u+2*l)+c):u<=x?(d=0,u=Math.min(Math.max(-r,-l),r),f=u*(u+2*l)+c):(d=Math.max(0,-(a*r+o)),u=d>0?r:Math.min(Math.max(-r,-l),r),f=-d*d+u*(u+2*l)+c);else u=a>0?-r:r,d=Math.max(0,-(a*u+o)),f=-d*d+u*(u+2*l)+c;return n&&n.copy(this.origin).addScaledVector(this.direction,d),s&&s.copy(Kc).addScaledVector(co,u),f}intersectSphere(t,e){if(t.radius<0)return null;Qi.subVectors(t.center,this.origin);let n=Qi.dot(this.direction),s=Qi.dot(Qi)-n*n,r=t.radius*t.radius;if(s>r)return null;let a=Math.sqrt(r-s),o=n-a,l=n+a;return l<0?null:o<0?this.at(l,e):this.at(o,e)}intersectsSphere(t){return t.radius<0?!1:this.distanceSqToPoint(t.center)<=t.radius*t.radius}distanceToPlane(t){let e=t.normal.dot(this.direction);if(e===0)return t.distanceToPoint(this.origin)===0?0:null;let n=-(this.origin.dot(t.normal)+t.constant)/e;return n>=0?n:null}intersectPlane(t,e){let n=this.distanceToPlane(t);return n===null?null:this.at(n,e)}intersectsPlane(t){let e=t.distanceToPoint(this.origin);return e===0||t.normal.dot(this.direction)*e<0}intersectBox(t,e){let n,s,r,a,o,l,c=1/this.direction.x,h=1/this.direction.y,d=1/this.direction.z,u=this.origin;return c>=0?(n=(t.min.x-u.x)*c,s=(t.max.x-u.x)*c):(n=(t.max.x-u.x)*c,s=(t.min.x-u.x)*c),h>=0?(r=(t.min.y-u.y)*h,a=(t.max.y-u.y)*h):(r=(t.max.y-u.y)*h,a=(t.min.y-u.y)*h),n>a||r>s||((r>n||isNaN(n))&&(n=r),(a<s||isNaN(s))&&(s=a),d>=0?(o=(t.min.z-u.z)*d,l=(t.max.z-u.z)*d):(o=(t.max.z-u.z)*d,l=(t.min.z-u.z)*d),n>l||o>s)||((o>n||n!==n)&&(n=o),(l<s||s!==s)&&(s=l),s<0)?null:this.at(n>=0?n:s,e)}intersectsBox(t){return this.intersectBox(t,Qi)!==null}intersectTriangle(t,e,n,s,r){let a=this.origin,o=this.direction,l=o.x,c=o.y,h=o.z,d=t.x-a.x,u=t.y-a.y,f=t.z-a.z,x=e.x-a.x,w=e.y-a.y,m=e.z-a.z,p=n.x-a.x,M=n.y-a.y,C=n.z-a.z,b=Math.abs(l),I=Math.abs(c),T=Math.abs(h),_,E,z,N,L,G,H,D,V,Y,k,ct;if(b>=I&&b>=T?(z=l,G=d,V=x,ct=p,l>=0?(_=c,E=h,N=u,L=f,H=w,D=m,Y=M,k=C):(_=h,E=c,N=f,L=u,H=m,D=w,Y=C,k=M)):I>=T?(z=c,G=u,V=w,ct=M,c>=0?(_=h,E=l,N=f,L=d,H=m,D=x,Y=C,k=p):(_=l,E=h,N=d,L=f,H=x,D=m,Y=p,k=C)):(z=h,G=f,V=m,ct=C,h>=0?(_=l,E=c,N=d,L=u,H=x,D=w,Y=p,k=M):(_=c,E=l,N=u,L=d,H=w,D=x,Y=M,k=p)),z===0)return null;let Z=_/z,j=E/z,st=1/z,dt=N-Z*G,ut=L-j*G,Q=H-Z*V,mt=D-j*V,xt=Y-Z*ct,At=k-j*ct,Mt=xt*mt-At*Q,Ht=dt*At-ut*xt,ie=Q*ut-mt*dt;if(s){if(Mt<0||Ht<0||ie<0)return null}else if((Mt<0||Ht<0||ie<0)&&(Mt>0||Ht>0||ie>0))return null;let Vt=Mt+Ht+ie;if(Vt===0)return null;let he=st*(Mt*G+Ht*V+ie*ct);return(Vt>0?he<0:he>0)?null:this.at(he/Vt,r)}applyMatrix4(t){return this.origin.applyMatrix4(t),this.direction.transformDirection(t),this}equals(t){return t.origin.equals(this.origin)&&t.direction.equals(this.direction)}clone(){return new this.constructor().copy(this)}},zo=class extends bs{constructor(t){super(),this.isMeshBasicMaterial=!0,this.type="MeshBasicMaterial",this.color=new ye(16777215),this.map=null,this.lightMap=null,this.lightMapIntensity=1,this.aoMap=null,this.aoMapIntensity=1,this.specularMap=null,this.alphaMap=null,this.envMap=null,this.envMapRotation=new Ss,this.combine=dh,this.reflectivity=1,this.refractionRatio=.98,this.wireframe=!1,this.wireframeLinewidth=1,this.wireframeLinecap="round",this.wireframeLinejoin="round",this.fog=!0,this.setValues(t)}copy(t){return super.copy(t),this.color.copy(t.color),this.map=t.map,this.lightMap=t.lightMap,this.lightMapIntensity=t.lightMapIntensity,this.aoMap=t.aoMap,this.aoMapIntensity=t.aoMapIntensity,this.specularMap=t.specularMap,this.alphaMap=t.alphaMap,this.envMap=t.envMap,this.envMapRotation.copy(t.envMapRotation),this.combine=t.combine,this.reflectivity=t.reflectivity,this.refractionRatio=t.refractionRatio,this.wireframe=t.wireframe,this.wireframeLinewidth=t.wireframeLinewidth,this.wireframeLinecap=t.wireframeLinecap,this.wireframeLinejoin=t.wireframeLinejoin,this.fog=t.fog,this}},Nd=new Xe,Bs=new Hs,uo=new Gs,Ud=new J,fo=new J,po=new J,mo=new J,jc=new J,go=new J,Fd=new J,_o=new J,Oi=class extends jn{constructor(t=new ci,e=new zo){super(),this.isMesh=!0,this.type="Mesh",this.geometry=t,this.material=e,this.morphTargetDictionary=void 0,this.morphTargetInfluences=void 0,this.count=1,this.updateMorphTargets()}copy(t,e){return super.copy(t,e),t.morphTargetInfluences!==void 0?this.morphTargetInfluences=t.morphTargetInfluences.slice():this.morphTargetInfluences=void 0,t.morphTargetDictionary!==void 0?this.morphTargetDictionary=Object.assign({},t.morphTargetDictionary):this.morphTargetDictionary=void 0,this.material=Array.isArray(t.material)?t.material.slice():t.material,this.geometry=t.geometry,this}updateMorphTargets(){let e=this.geometry.morphAttributes,n=Object.keys(e);if(n.length>0){let s=e[n[0]];if(s!==void 0){this.morphTargetInfluences=[],this.morphTargetDictionary={};for(let r=0,a=s.length;r<a;r++){let o=s[r].name||String(r);this.morphTargetInfluences.push(0),this.morphTargetDictionary[o]=r}}}}getVertexPosition(t,e){let n=this.geometry,s=n.attributes.position,r=n.morphAttributes.position,a=n.morphTargetsRelative;e.fromBufferAttribute(s,t);let o=this.morphTargetInfluences;if(r&&o){go.set(0,0,0);for(let l=0,c=r.length;l<c;l++){let h=o[l],d=r[l];h!==0&&(jc.fromBufferAttribute(d,t),a?go.addScaledVector(jc,h):go.addScaledVector(jc.sub(e),h))}e.add(go)}return e}intersectsFrustum(t){return t.intersectsObject(this)}raycast(t,e){let n=this.geometry,s=this.material,r=this.matrixWorld;s!==void 0&&(n.boundingSphere===null&&n.computeBoundingSphere(),uo.copy(n.boundingSphere),uo.applyMatrix4(r),Bs.copy(t.ray).recast(t.near),!(uo.containsPoint(Bs.origin)===!1&&(Bs.intersectSphere(uo,Ud)===null||Bs.origin.distanceToSquared(Ud)>(t.far-t.near)**2))&&(Nd.copy(r).invert(),Bs.copy(t.ray).applyMatrix4(Nd),!(n.boundingBox!==null&&Bs.intersectsBox(n.boundingBox)===!1)&&this._computeIntersections(t,e,Bs)))}_computeIntersections(t,e,n){let s,r=this.geometry,a=this.material,o=r.index,l=r.attributes.position,c=r.attributes.uv,h=r.attributes.uv1,d=r.attributes.normal,u=r.groups,f=r.drawRange;if(o!==null)if(Array.isArray(a))for(let x=0,w=u.length;x<w;x++){let m=u[x],p=a[m.materialIndex],M=Math.max(m.start,f.start),C=Math.min(o.count,Math.min(m.start+m.count,f.start+f.count));for(let b=M,I=C;b<I;b+=3){let T=o.getX(b),_=o.getX(b+1),E=o.getX(b+2);s=xo(this,p,t,n,c,h,d,T,_,E),s&&(s.faceIndex=Math.floor(b/3),s.face.materialIndex=m.materialIndex,e.push(s))}}else{let x=Math.max(0,f.start),w=Math.min(o.count,f.start+f.count);for(let m=x,p=w;m<p;m+=3){let M=o.getX(m),C=o.getX(m+1),b=o.getX(m+2);s=xo(this,a,t,n,c,h,d,M,C,b),s&&(s.faceIndex=Math.floor(m/3),e.push(s))}}else if(l!==void 0)if(Array.isArray(a))for(let x=0,w=u.length;x<w;x++){let m=u[x],p=a[m.materialIndex],M=Math.max(m.start,f.start),C=Math.min(l.count,Math.min(m.start+m.count,f.start+f.count));for(let b=M,I=C;b<I;b+=3){let T=b,_=b+1,E=b+2;s=xo(this,p,t,n,c,h,d,T,_,E),s&&(s.faceIndex=Math.floor(b/3),s.face.materialIndex=m.materialIndex,e.push(s))}}else{let x=Math.max(0,f.start),w=Math.min(l.count,f.start+f.count);for(let m=x,p=w;m<p;m+=3){let M=m,C=m+1,b=m+2;s=xo(this,a,t,n,c,h,d,M,C,b),s&&(s.faceIndex=Math.floor(m/3),e.push(s))}}}};function Jg(i,t,e,n,s,r,a,o){let l;if(t.side===Fn?l=n.intersectTriangle(a,r,s,!0,o):l=n.intersectTriangle(s,r,a,t.side===Cs,o),l===null)return null;_o.copy(o),_o.applyMatrix4(i.matrixWorld);let c=e.ray.origin.distanceTo(_o);return c<e.near||c>e.far?null:{distance:c,point:_o.clone(),object:i}}function xo(i,t,e,n,s,r,a,o,l,c){i.getVertexPosition(o,fo),i.getVertexPosition(l,po),i.getVertexPosition(c,mo);let h=Jg(i,t,e,n,fo,po,mo,Fd);if(h){let d=new J;vs.getBarycoord(Fd,fo,po,mo,d),s&&(h.uv=vs.getInterpolatedAttribute(s,o,l,c,d,new re)),r&&(h.uv1=vs.getInterpolatedAttribute(r,o,l,c,d,new re)),a&&(h.normal=vs.getInterpolatedAttribute(a,o,l,c,d,new J),h.normal.dot(n.direction)>0&&h.normal.multiplyScalar(-1));let u={a:o,b:l,c,normal:new J,materialIndex:0};vs.getNormal(fo,po,mo,u.normal),h.face=u,h.barycoord=d}return h}var Vo=class extends Bn{constructor(t=null,e=1,n=1,s,r,a,o,l,c=bn,h=bn,d,u){super(null,a,o,l,c,h,s,r,d,u),this.isDataTexture=!0,this.image={data:t,width:e,height:n},this.generateMipmaps=!1,this.flipY=!1,this.unpackAlignment=1}};var ks=new Gs,Kg=new re(.5,.5),yo=new J,Ws=class{constructor(t=new Yn,e=new Yn,n=new Yn,s=new Yn,r=new Yn,a=new Yn){this.planes=[t,e,n,s,r,a]}set(t,e,n,s,r,a){let o=this.planes;return o[0].copy(t),o[1].copy(e),o[2].copy(n),o[3].copy(s),o[4].copy(r),o[5].copy(a),this}copy(t){let e=this.planes;for(let n=0;n<6;n++)e[n].copy(t.planes[n]);return this}setFromProjectionMatrix(t,e=oi,n=!1){let s=this.planes,r=t.elements,a=r[0],o=r[1],l=r[2],c=r[3],h=r[4],d=r[5],u=r[6],f=r[7],x=r[8],w=r[9],m=r[10],p=r[11],M=r[12],C=r[13],b=r[14],I=r[15];if(s[0].setComponents(c-a,f-h,p-x,I-M).normalize(),s[1].setComponents(c+a,f+h,p+x,I+M).normalize(),s[2].setComponents(c+o,f+d,p+w,I+C).normalize(),s[3].setComponents(c-o,f-d,p-w,I-C).normalize(),n)s[4].setComponents(l,u,m,b).normalize(),s[5].setComponents(c-l,f-u,p-m,I-b).normalize();else if(s[4].setComponents(c-l,f-u,p-m,I-b).normalize(),e===oi)s[5].setComponents(c+l,f+u,p+m,I+b).normalize();else if(e===_a)s[5].setComponents(l,u,m,b).normalize();else throw new Error("THREE.Frustum.setFromProjectionMatrix(): Invalid coordinate system: "+e);return this}intersectsObject(t){if(t.boundingSphere!==void 0)t.boundingSphere===null&&t.computeBoundingSphere(),ks.copy(t.boundingSphere).applyMatrix4(t.matrixWorld);else{let e=t.geometry;e.boundingSphere===null&&e.computeBoundingSphere(),ks.copy(e.boundingSphere).applyMatrix4(t.matrixWorld)}return this.intersectsSphere(ks)}intersectsSprite(t){ks.center.set(0,0,0);let e=Kg.distanceTo(t.center);return ks.radius=.7071067811865476+e,ks.applyMatrix4(t.matrixWorld),this.intersectsSphere(ks)}intersectsSphere(t){let e=this.planes,n=t.center,s=-t.radius;for(let r=0;r<6;r++)if(e[r].distanceToPoint(n)<s)return!1;return!0}intersectsBox(t){let e=this.planes;for(let n=0;n<6;n++){let s=e[n];if(yo.x=s.normal.x>0?t.max.x:t.min.x,yo.y=s.normal.y>0?t.max.y:t.min.y,yo.z=s.normal.z>0?t.max.z:t.min.z,s.distanceToPoint(yo)<0)return!1}return!0}containsPoint(t){let e=this.planes;for(let n=0;n<6;n++)if(e[n].distanceToPoint(t)<0)return!1;return!0}clone(){return new this.constructor().copy(this)}},Od=new Xe,Go=class i{constructor(){this.coordinateSystem=oi,this._frustums=[],this._count=0}setFromArrayCamera(t){let e=t.cameras,n=this._frustums;for(let s=0;s<e.length;s++){let r=e[s];Od.multiplyMatrices(r.projectionMatrix,r.matrixWorldInverse),n[s]===void 0&&(n[s]=new Ws),n[s].setFromProjectionMatrix(Od,r.coordinateSystem,r.reversedDepth)}return this._count=e.length,this}getFrustum(t){return this._frustums[t]}intersectsObject(t){let e=this._frustums;for(let n=0;n<this._count;n++)if(e[n].intersectsObject(t))return!0;return!1}intersectsSprite(t){let e=this._frustums;for(let n=0;n<this._count;n++)if(e[n].intersectsSprite(t))return!0;return!1}intersectsSphere(t){let e=this._frustums;for(let n=0;n<this._count;n++)if(e[n].intersectsSphere(t))return!0;return!1}intersectsBox(t){let e=this._frustums;for(let n=0;n<this._count;n++)if(e[n].intersectsBox(t))return!0;return!1}containsPoint(t){let e=this._frustums;for(let n=0;n<this._count;n++)if(e[n].containsPoint(t))return!0;return!1}copy(t){this.coordinateSystem=t.coordinateSystem;let e=this._frustums,n=t._frustums;for(let s=0;s<t._count;s++)e[s]===void 0&&(e[s]=new Ws),e[s].copy(n[s]);return this._count=t._count,this}clone(){return new i().copy(this)}};var Lr=class extends bs{constructor(t){super(),this.isPointsMaterial=!0,this.type="PointsMaterial",this.color=new ye(16777215),this.map=null,this.alphaMap=null,this.size=1,this.sizeAttenuation=!0,this.fog=!0,this.setValues(t)}copy(t){return super.copy(t),this.color.copy(t.color),this.map=t.map,this.alphaMap=t.alphaMap,this.size=t.size,this.sizeAttenuation=t.sizeAttenuation,this.fog=t.fog,this}},Bd=new Xe,ih=new Hs,vo=new Gs,So=new J,wa=class extends jn{constructor(t=new ci,e=new Lr){super(),this.isPoints=!0,this.type="Points",this.geometry=t,this.material=e,this.morphTargetDictionary=void 0,this.morphTargetInfluences=void 0,this.updateMorphTargets()}copy(t,e){return super.copy(t,e),t.morphTargetInfluences!==void 0?this.morphTargetInfluences=t.morphTargetInfluences.slice():this.morphTargetInfluences=void 0,t.morphTargetDictionary!==void 0?this.morphTargetDictionary=Object.assign({},t.morphTargetDictionary):this.morphTargetDictionary=void 0,this.material=Array.isArray(t.material)?t.material.slice():t.material,this.geometry=t.geometry,this}intersectsFrustum(t){return t.intersectsObject(this)}raycast(t,e){let n=this.geometry,s=this.matrixWorld,r=t.params.Points.threshold,a=n.drawRange;if(n.boundingSphere===null&&n.computeBoundingSphere(),vo.copy(n.boundingSphere),vo.applyMatrix4(s),vo.radius+=r,t.ray.intersectsSphere(vo)===!1)return;Bd.copy(s).invert(),ih.copy(t.ray).applyMatrix4(Bd);let o=r/((this.scale.x+this.scale.y+this.scale.z)/3),l=o*o,c=n.index,d=n.attributes.position;if(c!==null){let u=Math.max(0,a.start),f=Math.min(c.count,a.start+a.count);for(let x=u,w=f;x<w;x++){let m=c.getX(x);So.fromBufferAttribute(d,m),kd(So,m,l,s,t,e,this)}}else{let u=Math.max(0,a.start),f=Math.min(d.count,a.start+a.count);for(let x=u,w=f;x<w;x++)So.fromBufferAttribute(d,x),kd(So,x,l,s,t,e,this)}}updateMorphTargets(){let e=this.geometry.morphAttributes,n=Object.keys(e);if(n.length>0){let s=e[n[0]];if(s!==void 0){this.morphTargetInfluences=[],this.morphTargetDictionary={};for(let r=0,a=s.length;r<a;r++){let o=s[r].name||String(r);this.morphTargetInfluences.push(0),this.morphTargetDictionary[o]=r}}}}};function kd(i,t,e,n,s,r,a){let o=ih.distanceSqToPoint(i);if(o<e){let l=new J;ih.closestPointToPoint(i,l),l.applyMatrix4(n);let c=s.ray.origin.distanceTo(l);if(c<s.near||c>s.far)return;r.push({distance:c,distanceToRay:Math.sqrt(o),point:l,index:t,face:null,faceIndex:null,barycoord:null,object:a})}}var Ea=class extends Bn{constructor(t=[],e=$s,n,s,r,a,o,l,c,h){super(t,e,n,s,r,a,o,l,c,h),this.isCubeTexture=!0,this.flipY=!1}get images(){return this.image}set images(t){this.image=t}};var ns=class extends Bn{constructor(t,e,n=vi,s,r,a,o=bn,l=bn,c,h=es,d=1){if(h!==es&&h!==ss)throw new Error("THREE.DepthTexture: format must be either THREE.DepthFormat or THREE.DepthStencilFormat");let u={width:t,height:e,depth:d};super(u,s,r,a,o,l,h,n,c),this.isDepthTexture=!0,this.flipY=!1,this.generateMipmaps=!1,this.compareFunction=null}copy(t){return super.copy(t),this.source=new Pr(Object.assign({},t.image)),this.compareFunction=t.compareFunction,this}toJSON(t){let e=super.toJSON(t);return e.compareFunction=this.compareFunction,e}},Ta=class extends ns{constructor(t,e=vi,n=$s,s,r,a=bn,o=bn,l,c=es){let h={width:t,height:t,depth:1},d=[h,h,h,h,h,h];super(t,t,e,n,s,r,a,o,l,c),this.image=d,this.isCubeDepthTexture=!0,this.isCubeTexture=!0}get images(){return this.image}set images(t){this.image=t}},Aa=class extends Bn{constructor(t=null){super(),this.sourceTexture=t,this.isExternalTexture=!0}copy(t){return super.copy(t),this.sourceTexture=t.sourceTexture,this}},Dr=class i extends ci{constructor(t=1,e=1,n=1,s=1,r=1,a=1){super(),this.type="BoxGeometry",this.parameters={width:t,height:e,depth:n,widthSegments:s,heightSegments:r,depthSegments:a};let o=this;s=Math.floor(s),r=Math.floor(r),a=Math.floor(a);let l=[],c=[],h=[],d=[],u=0,f=0;x("z","y","x",-1,-1,n,e,t,a,r,0),x("z","y","x",1,-1,n,e,-t,a,r,1),x("x","z","y",1,1,t,n,e,s,a,2),x("x","z","y",1,-1,t,n,-e,s,a,3),x("x","y","z",1,-1,t,e,n,s,r,4),x("x","y","z",-1,-1,t,e,-n,s,r,5),this.setIndex(l),this.setAttribute("position",new li(c,3)),this.setAttribute("normal",new li(h,3)),this.setAttribute("uv",new li(d,2));function x(w,m,p,M,C,b,I,T,_,E,z){let N=b/_,L=I/E,G=b/2,H=I/2,D=T/2,V=_+1,Y=E+1,k=0,ct=0,Z=new J;for(let j=0;j<Y;j++){let st=j*L-H;for(let dt=0;dt<V;dt++){let ut=dt*N-G;Z[w]=ut*M,Z[m]=st*C,Z[p]=D,c.push(Z.x,Z.y,Z.z),Z[w]=0,Z[m]=0,Z[p]=T>0?1:-1,h.push(Z.x,Z.y,Z.z),d.push(dt/_),d.push(1-j/E),k+=1}}for(let j=0;j<E;j++)for(let st=0;st<_;st++){let dt=u+st+V*j,ut=u+st+V*(j+1),Q=u+(st+1)+V*(j+1),mt=u+(st+1)+V*j;l.push(dt,ut,mt),l.push(ut,Q,mt),ct+=6}o.addGroup(f,ct,z),f+=ct,u+=k}}copy(t){return super.copy(t),this.parameters=Object.assign({},t.parameters),this}static fromJSON(t){return new i(t.width,t.height,t.depth,t.widthSegments,t.heightSegments,t.depthSegments)}};var Ra=class i extends ci{constructor(t=1,e=1,n=1,s=1){super(),this.type="PlaneGeometry",this.parameters={width:t,height:e,widthSegments:n,heightSegments:s};let r=t/2,a=e/2,o=Math.floor(n),l=Math.floor(s),c=o+1,h=l+1,d=t/o,u=e/l,f=[],x=[],w=[],m=[];for(let p=0;p<h;p++){let M=p*u-a;for(let C=0;C<c;C++){let b=C*d-r;x.push(b,-M,0),w.push(0,0,1),m.push(C/o),m.push(1-p/l)}}for(let p=0;p<l;p++)for(let M=0;M<o;M++){let C=M+c*p,b=M+c*(p+1),I=M+1+c*(p+1),T=M+1+c*p;f.push(C,b,T),f.push(b,I,T)}this.setIndex(f),this.setAttribute("position",new li(x,3)),this.setAttribute("normal",new li(w,3)),this.setAttribute("uv",new li(m,2))}copy(t){return super.copy(t),this.parameters=Object.assign({},t.parameters),this}static fromJSON(t){return new i(t.width,t.height,t.widthSegments,t.heightSegments)}};function Zs(i){let t={};for(let e in i){t[e]={};for(let n in i[e]){let s=i[e][n];if(zd(s))s.isRenderTargetTexture?($t("UniformsUtils: Textures of render targets cannot be cloned via cloneUniforms() or mergeUniforms()."),t[e][n]=null):t[e][n]=s.clone();else if(Array.isArray(s))if(zd(s[0])){let r=[];for(let a=0,o=s.length;a<o;a++)r[a]=s[a].clone();t[e][n]=r}else t[e][n]=s.slice();else t[e][n]=s}}return t}function Rn(i){let t={};for(let e=0;e<i.length;e++){let n=Zs(i[e]);for(let s in n)t[s]=n[s]}return t}function zd(i){return i&&(i.isColor||i.isMatrix3||i.isMatrix4||i.isVector2||i.isVector3||i.isVector4||i.isTexture||i.isQuaternion)}function jg(i){let t=[];for(let e=0;e<i.length;e++)t.push(i[e].clone());return t}function Bh(i){let t=i.getRenderTarget();return t===null?i.outputColorSpace:t.isXRRenderTarget===!0?t.texture.colorSpace:ge.workingColorSpace}var Lf={clone:Zs,merge:Rn},Qg=`void main() {
	gl_Position = projectionMatrix * modelViewMatrix * vec4( position, 1.0 );
}`,t0=`void main() {
	gl_FragColor = vec4( 1.0, 0.0, 0.0, 1.0 );
}`,Bi=class extends bs{constructor(t){super(),this.isShaderMaterial=!0,this.type="ShaderMaterial",this.defines={},this.uniforms={},this.uniformsGroups=[],this.vertexShader=Qg,this.fragmentShader=t0,this.linewidth=1,this.wireframe=!1,this.wireframeLinewidth=1,this.fog=!1,this.lights=!1,this.clipping=!1,this.forceSinglePass=!0,this.extensions={clipCullDistance:!1,multiDraw:!1},this.defaultAttributeValues={color:[1,1,1],uv:[0,0],uv1:[0,0]},this.index0AttributeName=void 0,this.uniformsNeedUpdate=!1,this.glslVersion=null,t!==void 0&&this.setValues(t)}copy(t){return super.copy(t),this.fragmentShader=t.fragmentShader,this.vertexShader=t.vertexShader,this.uniforms=Zs(t.uniforms),this.uniformsGroups=jg(t.uniformsGroups),this.defines=Object.assign({},t.defines),this.wireframe=t.wireframe,this.wireframeLinewidth=t.wireframeLinewidth,this.fog=t.fog,this.lights=t.lights,this.clipping=t.clipping,this.extensions=Object.assign({},t.extensions),this.glslVersion=t.glslVersion,this.defaultAttributeValues=Object.assign({},t.defaultAttributeValues),this.index0AttributeName=t.index0AttributeName,this.uniformsNeedUpdate=t.uniformsNeedUpdate,this}toJSON(t){let e=super.toJSON(t);e.glslVersion=this.glslVersion,e.uniforms={};for(let s in this.uniforms){let a=this.uniforms[s].value;a&&a.isTexture?e.uniforms[s]={type:"t",value:a.toJSON(t).uuid}:a&&a.isColor?e.uniforms[s]={type:"c",value:a.getHex()}:a&&a.isVector2?e.uniforms[s]={type:"v2",value:a.toArray()}:a&&a.isVector3?e.uniforms[s]={type:"v3",value:a.toArray()}:a&&a.isVector4?e.uniforms[s]={type:"v4",value:a.toArray()}:a&&a.isMatrix3?e.uniforms[s]={type:"m3",value:a.toArray()}:a&&a.isMatrix4?e.uniforms[s]={type:"m4",value:a.toArray()}:e.uniforms[s]={value:a}}Object.keys(this.defines).length>0&&(e.defines=this.defines),e.vertexShader=this.vertexShader,e.fragmentShader=this.fragmentShader,e.lights=this.lights,e.clipping=this.clipping;let n={};for(let s in this.extensions)this.extensions[s]===!0&&(n[s]=!0);return Object.keys(n).length>0&&(e.extensions=n),e}fromJSON(t,e){if(super.fromJSON(t,e),t.uniforms!==void 0)for(let n in t.uniforms){let s=t.uniforms[n];switch(this.uniforms[n]={},s.type){case"t":this.uniforms[n].value=e[s.value]||null;break;case"c":this.uniforms[n].value=new ye().setHex(s.value);break;case"v2":this.uniforms[n].value=new re().fromArray(s.value);break;case"v3":this.uniforms[n].value=new J().fromArray(s.value);break;case"v4":this.uniforms[n].value=new qe().fromArray(s.value);break;case"m3":this.uniforms[n].value=new Qt().fromArray(s.value);break;case"m4":this.uniforms[n].value=new Xe().fromArray(s.value);break;default:this.uniforms[n].value=s.value}}if(t.defines!==void 0&&(this.defines=t.defines),t.vertexShader!==void 0&&(this.vertexShader=t.vertexShader),t.fragmentShader!==void 0&&(this.fragmentShader=t.fragmentShader),t.glslVersion!==void 0&&(this.glslVersion=t.glslVersion),t.extensions!==void 0)for(let n in t.extensions)this.extensions[n]=t.extensions[n];return t.lights!==void 0&&(this.lights=t.lights),t.clipping!==void 0&&(this.clipping=t.clipping),this}},Ho=class extends Bi{constructor(t){super(t),this.isRawShaderMaterial=!0,this.type="RawShaderMaterial"}};var Wo=class extends bs{constructor(t){super(),this.isMeshDepthMaterial=!0,this.type="MeshDepthMaterial",this.depthPacking=gf,this.map=null,this.alphaMap=null,this.displacementMap=null,this.displacementScale=1,this.displacementBias=0,this.wireframe=!1,this.wireframeLinewidth=1,this.setValues(t)}copy(t){return super.copy(t),this.depthPacking=t.depthPacking,this.map=t.map,this.alphaMap=t.alphaMap,this.displacementMap=t.displacementMap,this.displacementScale=t.displacementScale,this.displacementBias=t.displacementBias,this.wireframe=t.wireframe,this.wireframeLinewidth=t.wireframeLinewidth,this}},Xo=class extends bs{constructor(t){super(),this.isMeshDistanceMaterial=!0,this.type="MeshDistanceMaterial",this.map=null,this.alphaMap=null,this.displacementMap=null,this.displacementScale=1,this.displacementBias=0,this.setValues(t)}copy(t){return super.copy(t),this.map=t.map,this.alphaMap=t.alphaMap,this.displacementMap=t.displacementMap,this.displacementScale=t.displacementScale,this.displacementBias=t.displacementBias,this}};function br(i,t){return!i||i.constructor===t?i:typeof t.BYTES_PER_ELEMENT=="number"?new t(i):Array.prototype.slice.call(i)}function Mo(i){return i!==void 0&&i.inTangents!==void 0&&i.outTangents!==void 0}var ws=class{constructor(t,e,n,s){this.parameterPositions=t,this._cachedIndex=0,this.resultBuffer=s!==void 0?s:new e.constructor(n),this.sampleValues=e,this.valueSize=n,this.settings=null,this.DefaultSettings_={}}evaluate(t){let e=this.parameterPositions,n=this._cachedIndex,s=e[n],r=e[n-1];n:{t:{let a;e:{i:if(!(t<s)){for(let o=n+2;;){if(s===void 0){if(t<r)break i;return n=e.length,this._cachedIndex=n,this.copySampleValue_(n-1)}if(n===o)break;if(r=s,s=e[++n],t<s)break t}a=e.length;break e}if(!(t>=r)){let o=e[1];t<o&&(n=2,r=o);for(let l=n-2;;){if(r===void 0)return this._cachedIndex=0,this.copySampleValue_(0);if(n===l)break;if(s=r,r=e[--n-1],t>=r)break t}a=n,n=0;break e}break n}for(;n<a;){let o=n+a>>>1;t<e[o]?a=o:n=o+1}if(s=e[n],r=e[n-1],r===void 0)return this._cachedIndex=0,this.copySampleValue_(0);if(s===void 0)return n=e.length,this._cachedIndex=n,this.copySampleValue_(n-1)}this._cachedIndex=n,this.intervalChanged_(n,r,s)}return this.interpolate_(n,r,t,s)}getSettings_(){return this.settings||this.DefaultSettings_}copySampleValue_(t){let e=this.resultBuffer,n=this.sampleValues,s=this.valueSize,r=t*s;for(let a=0;a!==s;++a)e[a]=n[r+a];return e}interpolate_(){throw new Error("THREE.Interpolant: Call to abstract method.")}intervalChanged_(){}},qo=class extends ws{constructor(t,e,n,s){super(t,e,n,s),this._weightPrev=-0,this._offsetPrev=-0,this._weightNext=-0,this._offsetNext=-0,this.DefaultSettings_={endingStart:th,endingEnd:th}}intervalChanged_(t,e,n){let s=this.parameterPositions,r=t-2,a=t+1,o=s[r],l=s[a];if(o===void 0)switch(this.getSettings_().endingStart){case eh:r=t,o=2*e-n;break;case nh:r=s.length-2,o=e+s[r]-s[r+1];break;default:r=t,o=n}if(l===void 0)switch(this.getSettings_().endingEnd){case eh:a=t,l=2*n-e;break;case nh:a=1,l=n+s[1]-s[0];break;default:a=t-1,l=e}let c=(n-e)*.5,h=this.valueSize;this._weightPrev=c/(e-o),this._weightNext=c/(l-n),this._offsetPrev=r*h,this._offsetNext=a*h}interpolate_(t,e,n,s){let r=this.resultBuffer,a=this.sampleValues,o=this.valueSize,l=t*o,c=l-o,h=this._offsetPrev,d=this._offsetNext,u=this._weightPrev,f=this._weightNext,x=(n-e)/(s-e),w=x*x,m=w*x,p=-u*m+2*u*w-u*x,M=(1+u)*m+(-1.5-2*u)*w+(-.5+u)*x+1,C=(-1-f)*m+(1.5+f)*w+.5*x,b=f*m-f*w;for(let I=0;I!==o;++I)r[I]=p*a[h+I]+M*a[c+I]+C*a[l+I]+b*a[d+I];return r}},$o=class extends ws{constructor(t,e,n,s){super(t,e,n,s)}interpolate_(t,e,n,s){let r=this.resultBuffer,a=this.sampleValues,o=this.valueSize,l=t*o,c=l-o,h=(n-e)/(s-e),d=1-h;for(let u=0;u!==o;++u)r[u]=a[c+u]*d+a[l+u]*h;return r}},Yo=class extends ws{constructor(t,e,n,s){super(t,e,n,s)}interpolate_(t){return this.copySampleValue_(t-1)}},Zo=class extends ws{interpolate_(t,e,n,s){let r=this.resultBuffer,a=this.sampleValues,o=this.valueSize,l=t*o,c=l-o,h=this.inTangents,d=this.outTangents;if(!h||!d){let x=(n-e)/(s-e),w=1-x;for(let m=0;m!==o;++m)r[m]=a[c+m]*w+a[l+m]*x;return r}let u=o*2,f=t-1;for(let x=0;x!==o;++x){let w=a[c+x],m=a[l+x],p=f*u+x*2,M=d[p],C=d[p+1],b=t*u+x*2,I=h[b],T=h[b+1],_=n0(n,e,M,I,s);r[x]=Df(_,w,C,T,m)}return r}};function Df(i,t,e,n,s){let r=1-i;return r*r*r*t+3*r*r*i*e+3*r*i*i*n+i*i*i*s}function e0(i,t,e,n,s){let r=1-i;return 3*r*r*(e-t)+6*r*i*(n-e)+3*i*i*(s-n)}function n0(i,t,e,n,s){let r=(i-t)/(s-t);for(let a=0;a<8;a++){let o=Df(r,t,e,n,s)-i;if(Math.abs(o)<1e-10)break;let l=e0(r,t,e,n,s);if(Math.abs(l)<1e-10)break;r=Math.max(0,Math.min(1,r-o/l))}return r}var Qn=class{constructor(t,e,n,s){if(t===void 0)throw new Error("THREE.KeyframeTrack: track name is undefined");if(e===void 0||e.length===0)throw new Error("THREE.KeyframeTrack: no keyframes in track named "+t);this.name=t,this.times=br(e,this.TimeBufferType),this.values=br(n,this.ValueBufferType),this.setInterpolation(s||this.DefaultInterpolation)}static toJSON(t){let e=t.constructor,n;if(e.toJSON!==this.toJSON)n=e.toJSON(t);else{n={name:t.name,times:br(t.times,Array),values:br(t.values,Array)};let s=t.getInterpolation();s!==t.DefaultInterpolation&&(n.interpolation=s),Mo(t.settings)&&(n.settings={inTangents:br(t.settings.inTangents,Array),outTangents:br(t.settings.outTangents,Array)})}return n.type=t.ValueTypeName,n}InterpolantFactoryMethodDiscrete(t){return new Yo(this.times,this.values,this.getValueSize(),t)}InterpolantFactoryMethodLinear(t){return new $o(this.times,this.values,this.getValueSize(),t)}InterpolantFactoryMethodSmooth(t){return new qo(this.times,this.values,this.getValueSize(),t)}InterpolantFactoryMethodBezier(t){let e=new Zo(this.times,this.values,this.getValueSize(),t);return this.settings&&(e.inTangents=this.settings.inTangents,e.outTangents=this.settings.outTangents),e}setInterpolation(t){let e;switch(t){case ma:e=this.InterpolantFactoryMethodDiscrete;break;case Fo:e=this.InterpolantFactoryMethodLinear;break;case Eo:e=this.InterpolantFactoryMethodSmooth;break;case Qc:e=this.InterpolantFactoryMethodBezier;break}if(e===void 0){let n="unsupported interpolation for "+this.ValueTypeName+" keyframe track named "+this.name;if(this.createInterpolant===void 0)if(t!==this.DefaultInterpolation)this.setInterpolation(this.DefaultInterpolation);else throw new Error(n);return $t("KeyframeTrack:",n),this}return this.createInterpolant=e,this}getInterpolation(){switch(this.createInterpolant){case this.InterpolantFactoryMethodDiscrete:return ma;case this.InterpolantFactoryMethodLinear:return Fo;case this.InterpolantFactoryMethodSmooth:return Eo;case this.InterpolantFactoryMethodBezier:return Qc}}getValueSize(){return this.values.length/this.times.length}shift(t){if(t!==0){let e=this.times;for(let n=0,s=e.length;n!==s;++n)e[n]+=t;Mo(this.settings)&&(Vd(this.settings.inTangents,t),Vd(this.settings.outTangents,t))}return this}scale(t){if(t!==1){let e=this.times;for(let n=0,s=e.length;n!==s;++n)e[n]*=t;Mo(this.settings)&&(Gd(this.settings.inTangents,t),Gd(this.settings.outTangents,t))}return this}trim(t,e){let n=this.times,s=n.length,r=0,a=s-1;for(;r!==s&&n[r]<t;)++r;for(;a!==-1&&n[a]>e;)--a;if(++a,r!==0||a!==s){r>=a&&(a=Math.max(a,1),r=a-1);let o=this.getValueSize();this.times=n.slice(r,a),this.values=this.values.slice(r*o,a*o)}return this}validate(){let t=!0,e=this.getValueSize();e-Math.floor(e)!==0&&(jt("KeyframeTrack: Invalid value size in track.",this),t=!1);let n=this.times,s=this.values,r=n.length;r===0&&(jt("KeyframeTrack: Track is empty.",this),t=!1);let a=null;for(let o=0;o!==r;o++){let l=n[o];if(typeof l=="number"&&isNaN(l)){jt("KeyframeTrack: Time is not a valid number.",this,o,l),t=!1;break}if(a!==null&&a>l){jt("KeyframeTrack: Out of order keys.",this,o,l,a),t=!1;break}a=l}if(s!==void 0&&xg(s))for(let o=0,l=s.length;o!==l;++o){let c=s[o];if(isNaN(c)){jt("KeyframeTrack: Value is not a valid number.",this,o,c),t=!1;break}}return t}optimize(){let t=this.times.slice(),e=this.values.slice(),n=this.getValueSize(),s=this.getInterpolation()===Eo,r=t.length-1,a=1;for(let o=1;o<r;++o){let l=!1,c=t[o],h=t[o+1];if(c!==h&&(o!==1||c!==t[0]))if(s)l=!0;else{let d=o*n,u=d-n,f=d+n;for(let x=0;x!==n;++x){let w=e[d+x];if(w!==e[u+x]||w!==e[f+x]){l=!0;break}}}if(l){if(o!==a){t[a]=t[o];let d=o*n,u=a*n;for(let f=0;f!==n;++f)e[u+f]=e[d+f]}++a}}if(r>0){t[a]=t[r];for(let o=r*n,l=a*n,c=0;c!==n;++c)e[l+c]=e[o+c];++a}return a!==t.length?(this.times=t.slice(0,a),this.values=e.slice(0,a*n)):(this.times=t,this.values=e),this}clone(){let t=this.times.slice(),e=this.values.slice(),n=this.constructor,s=new n(this.name,t,e);return s.createInterpolant=this.createInterpolant,Mo(this.settings)&&(s.settings={inTangents:this.settings.inTangents.slice(),outTangents:this.settings.outTangents.slice()}),s}};function Vd(i,t){for(let e=0,n=i.length;e!==n;e+=2)i[e]+=t}function Gd(i,t){for(let e=0,n=i.length;e!==n;e+=2)i[e]*=t}Qn.prototype.ValueTypeName="";Qn.prototype.TimeBufferType=Float32Array;Qn.prototype.ValueBufferType=Float32Array;Qn.prototype.DefaultInterpolation=Fo;var Es=class extends Qn{constructor(t,e,n){super(t,e,n)}};Es.prototype.ValueTypeName="bool";Es.prototype.ValueBufferType=Array;Es.prototype.DefaultInterpolation=ma;Es.prototype.InterpolantFactoryMethodLinear=void 0;Es.prototype.InterpolantFactoryMethodSmooth=void 0;var Jo=class extends Qn{constructor(t,e,n,s){super(t,e,n,s)}};Jo.prototype.ValueTypeName="color";var Ko=class extends Qn{constructor(t,e,n,s){super(t,e,n,s)}};Ko.prototype.ValueTypeName="number";var jo=class extends ws{constructor(t,e,n,s){super(t,e,n,s)}interpolate_(t,e,n,s){let r=this.resultBuffer,a=this.sampleValues,o=this.valueSize,l=(n-e)/(s-e),c=t*o;for(let h=c+o;c!==h;c+=4)Jn.slerpFlat(r,0,a,c-o,a,c,l);return r}},Ca=class extends Qn{constructor(t,e,n,s){super(t,e,n,s)}InterpolantFactoryMethodLinear(t){return new jo(this.times,this.values,this.getValueSize(),t)}};Ca.prototype.ValueTypeName="quaternion";Ca.prototype.InterpolantFactoryMethodSmooth=void 0;var Ts=class extends Qn{constructor(t,e,n){super(t,e,n)}};Ts.prototype.ValueTypeName="string";Ts.prototype.ValueBufferType=Array;Ts.prototype.DefaultInterpolation=ma;Ts.prototype.InterpolantFactoryMethodLinear=void 0;Ts.prototype.InterpolantFactoryMethodSmooth=void 0;var Qo=class extends Qn{constructor(t,e,n,s){super(t,e,n,s)}};Qo.prototype.ValueTypeName="vector";var tl=class{constructor(t,e,n){let s=this,r=!1,a=0,o=0,l,c=[];this.onStart=void 0,this.onLoad=t,this.onProgress=e,this.onError=n,this._abortController=null,this.itemStart=function(h){o++,r===!1&&s.onStart!==void 0&&s.onStart(h,a,o),r=!0},this.itemEnd=function(h){a++,s.onProgress!==void 0&&s.onProgress(h,a,o),a===o&&(r=!1,s.onLoad!==void 0&&s.onLoad())},this.itemError=function(h){s.onError!==void 0&&s.onError(h)},this.resolveURL=function(h){return h=h.normalize("NFC"),l?l(h):h},this.setURLModifier=function(h){return l=h,this},this.addHandler=function(h,d){return c.push(h,d),this},this.removeHandler=function(h){let d=c.indexOf(h);return d!==-1&&c.splice(d,2),this},this.getHandler=function(h){for(let d=0,u=c.length;d<u;d+=2){let f=c[d],x=c[d+1];if(f.global&&(f.lastIndex=0),f.test(h))return x}return null},this.abort=function(){return this.abortController.abort(),this._abortController=null,this}}get abortController(){return this._abortController||(this._abortController=new AbortController),this._abortController}},Nf=new tl,el=class{constructor(t){this.manager=t!==void 0?t:Nf,this.crossOrigin="anonymous",this.withCredentials=!1,this.path="",this.resourcePath="",this.requestHeader={},this.priority="auto",this.cache="default",typeof __THREE_DEVTOOLS__<"u"&&__THREE_DEVTOOLS__.dispatchEvent(new CustomEvent("observe",{detail:this}))}load(){}loadAsync(t,e){let n=this;return new Promise(function(s,r){n.load(t,s,e,r)})}parse(){}setCrossOrigin(t){return this.crossOrigin=t,this}setWithCredentials(t){return this.withCredentials=t,this}setPath(t){return this.path=t,this}setResourcePath(t){return this.resourcePath=t,this}setRequestHeader(t){return this.requestHeader=t,this}setPriority(t){return this.priority=t,this}setCache(t){return this.cache=t,this}abort(){return this}};el.DEFAULT_MATERIAL_NAME="__DEFAULT";var bo=new J,wo=new Jn,Ui=new J,Pa=class extends jn{constructor(){super(),this.isCamera=!0,this.type="Camera",this.matrixWorldInverse=new Xe,this.projectionMatrix=new Xe,this.projectionMatrixInverse=new Xe,this.coordinateSystem=oi,this._reversedDepth=!1}get reversedDepth(){return this._reversedDepth}copy(t,e){return super.copy(t,e),this.matrixWorldInverse.copy(t.matrixWorldInverse),this.projectionMatrix.copy(t.projectionMatrix),this.projectionMatrixInverse.copy(t.projectionMatrixInverse),this.coordinateSystem=t.coordinateSystem,this}getWorldDirection(t){return super.getWorldDirection(t).negate()}updateMatrixWorld(t){super.updateMatrixWorld(t),this.matrixWorld.decompose(bo,wo,Ui),Ui.x===1&&Ui.y===1&&Ui.z===1?this.matrixWorldInverse.copy(this.matrixWorld).invert():this.matrixWorldInverse.compose(bo,wo,Ui.set(1,1,1)).invert()}updateWorldMatrix(t,e,n=!1){super.updateWorldMatrix(t,e,n),this.matrixWorld.decompose(bo,wo,Ui),Ui.x===1&&Ui.y===1&&Ui.z===1?this.matrixWorldInverse.copy(this.matrixWorld).invert():this.matrixWorldInverse.compose(bo,wo,Ui.set(1,1,1)).invert()}clone(){return new this.constructor().copy(this)}},ys=new J,Hd=new re,Wd=new re,Nn=class extends Pa{constructor(t=50,e=1,n=.1,s=2e3){super(),this.isPerspectiveCamera=!0,this.type="PerspectiveCamera",this.fov=t,this.zoom=1,this.near=n,this.far=s,this.focus=10,this.aspect=e,this.view=null,this.filmGauge=35,this.filmOffset=0,this.updateProjectionMatrix()}copy(t,e){return super.copy(t,e),this.fov=t.fov,this.zoom=t.zoom,this.near=t.near,this.far=t.far,this.focus=t.focus,this.aspect=t.aspect,this.view=t.view===null?null:Object.assign({},t.view),this.filmGauge=t.filmGauge,this.filmOffset=t.filmOffset,this}setFocalLength(t){let e=.5*this.getFilmHeight()/t;this.fov=Cr*2*Math.atan(e),this.updateProjectionMatrix()}getFocalLength(){let t=Math.tan(fa*.5*this.fov);return .5*this.getFilmHeight()/t}getEffectiveFOV(){return Cr*2*Math.atan(Math.tan(fa*.5*this.fov)/this.zoom)}getFilmWidth(){return this.filmGauge*Math.min(this.aspect,1)}getFilmHeight(){return this.filmGauge/Math.max(this.aspect,1)}getViewBounds(t,e,n){ys.set(-1,-1,.5).applyMatrix4(this.projectionMatrixInverse),e.set(ys.x,ys.y).multiplyScalar(-t/ys.z),ys.set(1,1,.5).applyMatrix4(this.projectionMatrixInverse),n.set(ys.x,ys.y).multiplyScalar(-t/ys.z)}getViewSize(t,e){return this.getViewBounds(t,Hd,Wd),e.subVectors(Wd,Hd)}setViewOffset(t,e,n,s,r,a){this.aspect=t/e,this.view===null&&(this.view={enabled:!0,fullWidth:1,fullHeight:1,offsetX:0,offsetY:0,width:1,height:1}),this.view.enabled=!0,this.view.fullWidth=t,this.view.fullHeight=e,this.view.offsetX=n,this.view.offsetY=s,this.view.width=r,this.view.height=a,this.updateProjectionMatrix()}clearViewOffset(){this.view!==null&&(this.view.enabled=!1),this.updateProjectionMatrix()}updateProjectionMatrix(){let t=this.near,e=t*Math.tan(fa*.5*this.fov)/this.zoom,n=2*e,s=this.aspect*n,r=-.5*s,a=this.view;if(this.view!==null&&this.view.enabled){let l=a.fullWidth,c=a.fullHeight;r+=a.offsetX*s/l,e-=a.offsetY*n/c,s*=a.width/l,n*=a.height/c}let o=this.filmOffset;o!==0&&(r+=t*o/this.getFilmWidth()),this.projectionMatrix.makePerspective(r,r+s,e,e-n,t,this.far,this.coordinateSystem,this.reversedDepth),this.projectionMatrixInverse.copy(this.projectionMatrix).invert()}toJSON(t){let e=super.toJSON(t);return e.object.fov=this.fov,e.object.zoom=this.zoom,e.object.near=this.near,e.object.far=this.far,e.object.focus=this.focus,e.object.aspect=this.aspect,this.view!==null&&(e.object.view=Object.assign({},this.view)),e.object.filmGauge=this.filmGauge,e.object.filmOffset=this.filmOffset,e}};var nl=class extends Pa{constructor(t=-1,e=1,n=1,s=-1,r=.1,a=2e3){super(),this.isOrthographicCamera=!0,this.type="OrthographicCamera",this.zoom=1,this.view=null,this.left=t,this.right=e,this.top=n,this.bottom=s,this.near=r,this.far=a,this.updateProjectionMatrix()}copy(t,e){return super.copy(t,e),this.left=t.left,this.right=t.right,this.top=t.top,this.bottom=t.bottom,this.near=t.near,this.far=t.far,this.zoom=t.zoom,this.view=t.view===null?null:Object.assign({},t.view),this}setViewOffset(t,e,n,s,r,a){this.view===null&&(this.view={enabled:!0,fullWidth:1,fullHeight:1,offsetX:0,offsetY:0,width:1,height:1}),this.view.enabled=!0,this.view.fullWidth=t,this.view.fullHeight=e,this.view.offsetX=n,this.view.offsetY=s,this.view.width=r,this.view.height=a,this.updateProjectionMatrix()}clearViewOffset(){this.view!==null&&(this.view.enabled=!1),this.updateProjectionMatrix()}updateProjectionMatrix(){let t=(this.right-this.left)/(2*this.zoom),e=(this.top-this.bottom)/(2*this.zoom),n=(this.right+this.left)/2,s=(this.top+this.bottom)/2,r=n-t,a=n+t,o=s+e,l=s-e;if(this.view!==null&&this.view.enabled){let c=(this.right-this.left)/this.view.fullWidth/this.zoom,h=(this.top-this.bottom)/this.view.fullHeight/this.zoom;r+=c*this.view.offsetX,a=r+c*this.view.width,o-=h*this.view.offsetY,l=o-h*this.view.height}this.projectionMatrix.makeOrthographic(r,a,o,l,this.near,this.far,this.coordinateSystem,this.reversedDepth),this.projectionMatrixInverse.copy(this.projectionMatrix).invert()}toJSON(t){let e=super.toJSON(t);return e.object.zoom=this.zoom,e.object.left=this.left,e.object.right=this.right,e.object.top=this.top,e.object.bottom=this.bottom,e.object.near=this.near,e.object.far=this.far,this.view!==null&&(e.object.view=Object.assign({},this.view)),e}};var wr=-90,Er=1,Nr=class extends jn{constructor(t,e,n){super(),this.type="CubeCamera",this.renderTarget=n,this.coordinateSystem=null,this.activeMipmapLevel=0;let s=new Nn(wr,Er,t,e);s.layers=this.layers,this.add(s);let r=new Nn(wr,Er,t,e);r.layers=this.layers,this.add(r);let a=new Nn(wr,Er,t,e);a.layers=this.layers,this.add(a);let o=new Nn(wr,Er,t,e);o.layers=this.layers,this.add(o);let l=new Nn(wr,Er,t,e);l.layers=this.layers,this.add(l);let c=new Nn(wr,Er,t,e);c.layers=this.layers,this.add(c)}updateCoordinateSystem(){let t=this.coordinateSystem,e=this.children.concat(),[n,s,r,a,o,l]=e;for(let c of e)this.remove(c);if(t===oi)n.up.set(0,1,0),n.lookAt(1,0,0),s.up.set(0,1,0),s.lookAt(-1,0,0),r.up.set(0,0,-1),r.lookAt(0,1,0),a.up.set(0,0,1),a.lookAt(0,-1,0),o.up.set(0,1,0),o.lookAt(0,0,1),l.up.set(0,1,0),l.lookAt(0,0,-1);else if(t===_a)n.up.set(0,-1,0),n.lookAt(-1,0,0),s.up.set(0,-1,0),s.lookAt(1,0,0),r.up.set(0,0,1),r.lookAt(0,1,0),a.up.set(0,0,-1),a.lookAt(0,-1,0),o.up.set(0,-1,0),o.lookAt(0,0,1),l.up.set(0,-1,0),l.lookAt(0,0,-1);else throw new Error("THREE.CubeCamera.updateCoordinateSystem(): Invalid coordinate system: "+t);for(let c of e)this.add(c),c.updateMatrixWorld()}update(t,e){this.parent===null&&this.updateMatrixWorld();let{renderTarget:n,activeMipmapLevel:s}=this;this.coordinateSystem!==t.coordinateSystem&&(this.coordinateSystem=t.coordinateSystem,this.updateCoordinateSystem());let[r,a,o,l,c,h]=this.children,d=t.getRenderTarget(),u=t.getActiveCubeFace(),f=t.getActiveMipmapLevel(),x=t.xr.enabled;t.xr.enabled=!1;let w=n.texture.mipmapsAutoUpdate;n.texture.mipmapsAutoUpdate=!1;let m=!1;t.isWebGLRenderer===!0?m=t.state.buffers.depth.getReversed():m=t.reversedDepthBuffer,t.setRenderTarget(n,0,s),m&&t.autoClear===!1&&t.clearDepth(),t.render(e,r),t.setRenderTarget(n,1,s),m&&t.autoClear===!1&&t.clearDepth(),t.render(e,a),t.setRenderTarget(n,2,s),m&&t.autoClear===!1&&t.clearDepth(),t.render(e,o),t.setRenderTarget(n,3,s),m&&t.autoClear===!1&&t.clearDepth(),t.render(e,l),t.setRenderTarget(n,4,s),m&&t.autoClear===!1&&t.clearDepth(),t.render(e,c),n.texture.mipmapsAutoUpdate=w,t.setRenderTarget(n,5,s),m&&t.autoClear===!1&&t.clearDepth(),t.render(e,h),t.setRenderTarget(d,u,f),t.xr.enabled=x,n.texture.needsPMREMUpdate=!0}},il=class extends Nn{constructor(t=[]){super(),this.isArrayCamera=!0,this.isMultiViewCamera=!1,this.cameras=t,this.perCameraFrustumCulled=!1}};var kh="\\[\\]\\.:\\/",i0=new RegExp("["+kh+"]","g"),zh="[^"+kh+"]",s0="[^"+kh.replace("\\.","")+"]",r0=/((?:WC+[\/:])*)/.source.replace("WC",zh),a0=/(WCOD+)?/.source.replace("WCOD",s0),o0=/(?:\.(WC+)(?:\[(.+)\])?)?/.source.replace("WC",zh),l0=/\.(WC+)(?:\[(.+)\])?/.source.replace("WC",zh),c0=new RegExp("^"+r0+a0+o0+l0+"$"),h0=["material","materials","bones","map"],sh=class{constructor(t,e,n){let s=n||ze.parseTrackName(e);this._targetGroup=t,this._bindings=t.subscribe_(e,s)}getValue(t,e){this.bind();let n=this._targetGroup.nCachedObjects_,s=this._bindings[n];s!==void 0&&s.getValue(t,e)}setValue(t,e){let n=this._bindings;for(let s=this._targetGroup.nCachedObjects_,r=n.length;s!==r;++s)n[s].setValue(t,e)}bind(){let t=this._bindings;for(let e=this._targetGroup.nCachedObjects_,n=t.length;e!==n;++e)t[e].bind()}unbind(){let t=this._bindings;for(let e=this._targetGroup.nCachedObjects_,n=t.length;e!==n;++e)t[e].unbind()}},ze=class i{constructor(t,e,n){this.path=e,this.parsedPath=n||i.parseTrackName(e),this.node=i.findNode(t,this.parsedPath.nodeName),this.rootNode=t,this.getValue=this._getValue_unbound,this.setValue=this._setValue_unbound}static create(t,e,n){return t&&t.isAnimationObjectGroup?new i.Composite(t,e,n):new i(t,e,n)}static sanitizeNodeName(t){return t.replace(/\s/g,"_").replace(i0,"")}static parseTrackName(t){let e=c0.exec(t);if(e===null)throw new Error("THREE.PropertyBinding: Cannot parse trackName: "+t);let n={nodeName:e[2],objectName:e[3],objectIndex:e[4],propertyName:e[5],propertyIndex:e[6]},s=n.nodeName&&n.nodeName.lastIndexOf(".");if(s!==void 0&&s!==-1){let r=n.nodeName.substring(s+1);h0.indexOf(r)!==-1&&(n.nodeName=n.nodeName.substring(0,s),n.objectName=r)}if(n.propertyName===null||n.propertyName.length===0)throw new Error("THREE.PropertyBinding: can not parse propertyName from trackName: "+t);return n}static findNode(t,e){if(e===void 0||e===""||e==="."||e===-1||e===t.name||e===t.uuid)return t;if(t.skeleton){let n=t.skeleton.getBoneByName(e);if(n!==void 0)return n}if(t.children){let n=function(r){for(let a=0;a<r.length;a++){let o=r[a];if(o.name===e||o.uuid===e)return o;let l=n(o.children);if(l)return l}return null},s=n(t.children);if(s)return s}return null}_getValue_unavailable(){}_setValue_unavailable(){}_getValue_direct(t,e){t[e]=this.targetObject[this.propertyName]}_getValue_array(t,e){let n=this.resolvedProperty;for(let s=0,r=n.length;s!==r;++s)t[e++]=n[s]}_getValue_arrayElement(t,e){t[e]=this.resolvedProperty[this.propertyIndex]}_getValue_toArray(t,e){this.resolvedProperty.toArray(t,e)}_setValue_direct(t,e){this.targetObject[this.propertyName]=t[e]}_setValue_direct_setNeedsUpdate(t,e){this.targetObject[this.propertyName]=t[e],this.targetObject.needsUpdate=!0}_setValue_direct_setMatrixWorldNeedsUpdate(t,e){this.targetObject[this.propertyName]=t[e],this.targetObject.matrixWorldNeedsUpdate=!0}_setValue_array(t,e){let n=this.resolvedProperty;for(let s=0,r=n.length;s!==r;++s)n[s]=t[e++]}_setValue_array_setNeedsUpdate(t,e){let n=this.resolvedProperty;for(let s=0,r=n.length;s!==r;++s)n[s]=t[e++];this.targetObject.needsUpdate=!0}_setValue_array_setMatrixWorldNeedsUpdate(t,e){let n=this.resolvedProperty;for(let s=0,r=n.length;s!==r;++s)n[s]=t[e++];this.targetObject.matrixWorldNeedsUpdate=!0}_setValue_arrayElement(t,e){this.resolvedProperty[this.propertyIndex]=t[e]}_setValue_arrayElement_setNeedsUpdate(t,e){this.resolvedProperty[this.propertyIndex]=t[e],this.targetObject.needsUpdate=!0}_setValue_arrayElement_setMatrixWorldNeedsUpdate(t,e){this.resolvedProperty[this.propertyIndex]=t[e],this.targetObject.matrixWorldNeedsUpdate=!0}_setValue_fromArray(t,e){this.resolvedProperty.fromArray(t,e)}_setValue_fromArray_setNeedsUpdate(t,e){this.resolvedProperty.fromArray(t,e),this.targetObject.needsUpdate=!0}_setValue_fromArray_setMatrixWorldNeedsUpdate(t,e){this.resolvedProperty.fromArray(t,e),this.targetObject.matrixWorldNeedsUpdate=!0}_getValue_unbound(t,e){this.bind(),this.getValue(t,e)}_setValue_unbound(t,e){this.bind(),this.setValue(t,e)}bind(){let t=this.node,e=this.parsedPath,n=e.objectName,s=e.propertyName,r=e.propertyIndex;if(t||(t=i.findNode(this.rootNode,e.nodeName),this.node=t),this.getValue=this._getValue_unavailable,this.setValue=this._setValue_unavailable,!t){$t("PropertyBinding: No target node found for track: "+this.path+".");return}if(n){let c=e.objectIndex;switch(n){case"materials":if(!t.material){jt("PropertyBinding: Can not bind to material as node does not have a material.",this);return}if(!t.material.materials){jt("PropertyBinding: Can not bind to material.materials as node.material does not have a materials array.",this);return}t=t.material.materials;break;case"bones":if(!t.skeleton){jt("PropertyBinding: Can not bind to bones as node does not have a skeleton.",this);return}t=t.skeleton.bones;for(let h=0;h<t.length;h++)if(t[h].name===c){c=h;break}break;case"map":if("map"in t){t=t.map;break}if(!t.material){jt("PropertyBinding: Can not bind to material as node does not have a material.",this);return}if(!t.material.map){jt("PropertyBinding: Can not bind to material.map as node.material does not have a map.",this);return}t=t.material.map;break;default:if(t[n]===void 0){jt("PropertyBinding: Can not bind to objectName of node undefined.",this);return}t=t[n]}if(c!==void 0){if(t[c]===void 0){jt("PropertyBinding: Trying to bind to objectIndex of objectName, but is undefined.",this,t);return}t=t[c]}}let a=t[s];if(a===void 0){let c=e.nodeName;jt("PropertyBinding: Trying to update property for track: "+c+"."+s+" but it wasn't found.",t);return}let o=this.Versioning.None;this.targetObject=t,t.isMaterial===!0?o=this.Versioning.NeedsUpdate:t.isObject3D===!0&&(o=this.Versioning.MatrixWorldNeedsUpdate);let l=this.BindingType.Direct;if(r!==void 0){if(s==="morphTargetInfluences"){if(!t.geometry){jt("PropertyBinding: Can not bind to morphTargetInfluences because node does not have a geometry.",this);return}if(!t.geometry.morphAttributes){jt("PropertyBinding: Can not bind to morphTargetInfluences because node does not have a geometry.morphAttributes.",this);return}t.morphTargetDictionary[r]!==void 0&&(r=t.morphTargetDictionary[r])}l=this.BindingType.ArrayElement,this.resolvedProperty=a,this.propertyIndex=r}else a.fromArray!==void 0&&a.toArray!==void 0?(l=this.BindingType.HasFromToArray,this.resolvedProperty=a):Array.isArray(a)?(l=this.BindingType.EntireArray,this.resolvedProperty=a):this.propertyName=s;this.getValue=this.GetterByBindingType[l],this.setValue=this.SetterByBindingTypeAndVersioning[l][o]}unbind(){this.node=null,this.getValue=this._getValue_unbound,this.setValue=this._setValue_unbound}};ze.Composite=sh;ze.prototype.BindingType={Direct:0,EntireArray:1,ArrayElement:2,HasFromToArray:3};ze.prototype.Versioning={None:0,NeedsUpdate:1,MatrixWorldNeedsUpdate:2};ze.prototype.GetterByBindingType=[ze.prototype._getValue_direct,ze.prototype._getValue_array,ze.prototype._getValue_arrayElement,ze.prototype._getValue_toArray];ze.prototype.SetterByBindingTypeAndVersioning=[[ze.prototype._setValue_direct,ze.prototype._setValue_direct_setNeedsUpdate,ze.prototype._setValue_direct_setMatrixWorldNeedsUpdate],[ze.prototype._setValue_array,ze.prototype._setValue_array_setNeedsUpdate,ze.prototype._setValue_array_setMatrixWorldNeedsUpdate],[ze.prototype._setValue_arrayElement,ze.prototype._setValue_arrayElement_setNeedsUpdate,ze.prototype._setValue_arrayElement_setMatrixWorldNeedsUpdate],[ze.prototype._setValue_fromArray,ze.prototype._setValue_fromArray_setNeedsUpdate,ze.prototype._setValue_fromArray_setMatrixWorldNeedsUpdate]];var bb=new Float32Array(1);var Ur=class{constructor(t=1,e=0,n=0){this.radius=t,this.phi=e,this.theta=n}set(t,e,n){return this.radius=t,this.phi=e,this.theta=n,this}copy(t){return this.radius=t.radius,this.phi=t.phi,this.theta=t.theta,this}makeSafe(){return this.phi=fe(this.phi,1e-6,Math.PI-1e-6),this}setFromVector3(t){return this.setFromCartesianCoords(t.x,t.y,t.z)}setFromCartesianCoords(t,e,n){return this.radius=Math.sqrt(t*t+e*e+n*n),this.radius===0?(this.theta=0,this.phi=0):(this.theta=Math.atan2(t,n),this.phi=Math.acos(fe(e/this.radius,-1,1))),this}clone(){return new this.constructor().copy(this)}};var qh=class qh{constructor(t,e,n,s){this.elements=[1,0,0,1],t!==void 0&&this.set(t,e,n,s)}identity(){return this.set(1,0,0,1),this}fromArray(t,e=0){for(let n=0;n<4;n++)this.elements[n]=t[n+e];return this}set(t,e,n,s){let r=this.elements;return r[0]=t,r[2]=e,r[1]=n,r[3]=s,this}};qh.prototype.isMatrix2=!0;var rh=qh;var Ia=class extends yi{constructor(t,e=null){super(),this.object=t,this.domElement=e,this.enabled=!0,this.state=-1,this.keys={},this.mouseButtons={LEFT:null,MIDDLE:null,RIGHT:null},this.touches={ONE:null,TWO:null}}connect(t){this.domElement!==null&&this.disconnect(),this.domElement=t}disconnect(){}dispose(){}update(){}};function Vh(i,t,e,n){let s=u0(n);switch(e){case Eh:return i*t;case Ah:return i*t/s.components*s.byteLength;case ul:return i*t/s.components*s.byteLength;case Ps:return i*t*2/s.components*s.byteLength;case dl:return i*t*2/s.components*s.byteLength;case Th:return i*t*3/s.components*s.byteLength;case bi:return i*t*4/s.components*s.byteLength;case fl:return i*t*4/s.components*s.byteLength;case Na:case Ua:return Math.floor((i+3)/4)*Math.floor((t+3)/4)*8;case Fa:case Oa:return Math.floor((i+3)/4)*Math.floor((t+3)/4)*16;case ml:case _l:return Math.max(i,16)*Math.max(t,8)/4;case pl:case gl:return Math.max(i,8)*Math.max(t,8)/2;case xl:case yl:case Sl:case Ml:return Math.floor((i+3)/4)*Math.floor((t+3)/4)*8;case vl:case Ba:case bl:return Math.floor((i+3)/4)*Math.floor((t+3)/4)*16;case wl:return Math.floor((i+3)/4)*Math.floor((t+3)/4)*16;case El:return Math.floor((i+4)/5)*Math.floor((t+3)/4)*16;case Tl:return Math.floor((i+4)/5)*Math.floor((t+4)/5)*16;case Al:return Math.floor((i+5)/6)*Math.floor((t+4)/5)*16;case Rl:return Math.floor((i+5)/6)*Math.floor((t+5)/6)*16;case Cl:return Math.floor((i+7)/8)*Math.floor((t+4)/5)*16;case Pl:return Math.floor((i+7)/8)*Math.floor((t+5)/6)*16;case Il:return Math.floor((i+7)/8)*Math.floor((t+7)/8)*16;case Ll:return Math.floor((i+9)/10)*Math.floor((t+4)/5)*16;case Dl:return Math.floor((i+9)/10)*Math.floor((t+5)/6)*16;case Nl:return Math.floor((i+9)/10)*Math.floor((t+7)/8)*16;case Ul:return Math.floor((i+9)/10)*Math.floor((t+9)/10)*16;case Fl:return Math.floor((i+11)/12)*Math.floor((t+9)/10)*16;case Ol:return Math.floor((i+11)/12)*Math.floor((t+11)/12)*16;case Bl:case kl:case zl:return Math.ceil(i/4)*Math.ceil(t/4)*16;case Vl:case Gl:return Math.ceil(i/4)*Math.ceil(t/4)*8;case ka:case Hl:return Math.ceil(i/4)*Math.ceil(t/4)*16}throw new Error(`Unable to determine texture byte length for ${e} format.`)}function u0(i){switch(i){case ti:case Sh:return{byteLength:1,components:1};case kr:case Mh:case Mi:return{byteLength:2,components:1};case cl:case hl:return{byteLength:2,components:4};case vi:case ll:case Si:return{byteLength:4,components:1};case bh:case wh:return{byteLength:4,components:3}}throw new Error(`THREE.TextureUtils: Unknown texture type ${i}.`)}typeof __THREE_DEVTOOLS__<"u"&&__THREE_DEVTOOLS__.dispatchEvent(new CustomEvent("register",{detail:{revision:"187"}}));typeof window<"u"&&(window.__THREE__?$t("WARNING: Multiple instances of Three.js being imported."):window.__THREE__="187");function np(){let i=null,t=!1,e=null,n=null;function s(r,a){n=i.requestAnimationFrame(s),e(r,a)}return{start:function(){t!==!0&&e!==null&&i!==null&&(n=i.requestAnimationFrame(s),t=!0)},stop:function(){i!==null&&i.cancelAnimationFrame(n),t=!1},setAnimationLoop:function(r){e=r},setContext:function(r){i=r}}}function f0(i){let t=new WeakMap;function e(o,l){let c=o.array,h=o.usage,d=c.byteLength,u=i.createBuffer();i.bindBuffer(l,u),i.bufferData(l,c,h),o.onUploadCallback();let f;if(c instanceof Float32Array)f=i.FLOAT;else if(typeof Float16Array<"u"&&c instanceof Float16Array)f=i.HALF_FLOAT;else if(c instanceof Uint16Array)o.isFloat16BufferAttribute?f=i.HALF_FLOAT:f=i.UNSIGNED_SHORT;else if(c instanceof Int16Array)f=i.SHORT;else if(c instanceof Uint32Array)f=i.UNSIGNED_INT;else if(c instanceof Int32Array)f=i.INT;else if(c instanceof Int8Array)f=i.BYTE;else if(c instanceof Uint8Array)f=i.UNSIGNED_BYTE;else if(c instanceof Uint8ClampedArray)f=i.UNSIGNED_BYTE;else throw new Error("THREE.WebGLAttributes: Unsupported buffer data format: "+c);return{buffer:u,type:f,bytesPerElement:c.BYTES_PER_ELEMENT,version:o.version,size:d}}function n(o,l,c){let h=l.array,d=l.updateRanges;if(i.bindBuffer(c,o),d.length===0)i.bufferSubData(c,0,h);else{d.sort((f,x)=>f.start-x.start);let u=0;for(let f=1;f<d.length;f++){let x=d[u],w=d[f];w.start<=x.start+x.count+1?x.count=Math.max(x.count,w.start+w.count-x.start):(++u,d[u]=w)}d.length=u+1;for(let f=0,x=d.length;f<x;f++){let w=d[f];i.bufferSubData(c,w.start*h.BYTES_PER_ELEMENT,h,w.start,w.count)}l.clearUpdateRanges()}l.onUploadCallback()}function s(o){return o.isInterleavedBufferAttribute&&(o=o.data),t.get(o)}function r(o){o.isInterleavedBufferAttribute&&(o=o.data);let l=t.get(o);l&&(i.deleteBuffer(l.buffer),t.delete(o))}function a(o,l){if(o.isInterleavedBufferAttribute&&(o=o.data),o.isGLBufferAttribute){let h=t.get(o);(!h||h.version<o.version)&&t.set(o,{buffer:o.buffer,type:o.type,bytesPerElement:o.elementSize,version:o.version});return}let c=t.get(o);if(c===void 0)t.set(o,e(o,l));else if(c.version<o.version){if(c.size!==o.array.byteLength)throw new Error("THREE.WebGLAttributes: The size of the buffer attribute's array buffer does not match the original size. Resizing buffer attributes is not supported.");n(c.buffer,o,l),c.version=o.version}}return{get:s,remove:r,update:a}}var p0=`#ifdef USE_ALPHAHASH
	if ( diffuseColor.a < getAlphaHashThreshold( vPosition ) ) discard;
#endif`,m0=`#ifdef USE_ALPHAHASH
	const float ALPHA_HASH_SCALE = 0.05;
	float hash2D( vec2 value ) {
		return fract( 1.0e4 * sin( 17.0 * value.x + 0.1 * value.y ) * ( 0.1 + abs( sin( 13.0 * value.y + value.x ) ) ) );
	}
	float hash3D( vec3 value ) {
		return hash2D( vec2( hash2D( value.xy ), value.z ) );
	}
	float getAlphaHashThreshold( vec3 position ) {
		float maxDeriv = max(
			length( dFdx( position.xyz ) ),
			length( dFdy( position.xyz ) )
		);
		float pixScale = 1.0 / ( ALPHA_HASH_SCALE * maxDeriv );
		vec2 pixScales = vec2(
			exp2( floor( log2( pixScale ) ) ),
			exp2( ceil( log2( pixScale ) ) )
		);
		vec2 alpha = vec2(
			hash3D( floor( pixScales.x * position.xyz ) ),
			hash3D( floor( pixScales.y * position.xyz ) )
		);
		float lerpFactor = fract( log2( pixScale ) );
		float x = ( 1.0 - lerpFactor ) * alpha.x + lerpFactor * alpha.y;
		float a = min( lerpFactor, 1.0 - lerpFactor );
		vec3 cases = vec3(
			x * x / ( 2.0 * a * ( 1.0 - a ) ),
			( x - 0.5 * a ) / ( 1.0 - a ),
			1.0 - ( ( 1.0 - x ) * ( 1.0 - x ) / ( 2.0 * a * ( 1.0 - a ) ) )
		);
		float threshold = ( x < ( 1.0 - a ) )
			? ( ( x < a ) ? cases.x : cases.y )
			: cases.z;
		return clamp( threshold , 1.0e-6, 1.0 );
	}
#endif`,g0=`#ifdef USE_ALPHAMAP
	diffuseColor.a *= texture2D( alphaMap, vAlphaMapUv ).g;
#endif`,_0=`#ifdef USE_ALPHAMAP
	uniform sampler2D alphaMap;
#endif`,x0=`#ifdef USE_ALPHATEST
	#ifdef ALPHA_TO_COVERAGE
	diffuseColor.a = smoothstep( alphaTest, alphaTest + fwidth( diffuseColor.a ), diffuseColor.a );
	if ( diffuseColor.a == 0.0 ) discard;
	#else
	if ( diffuseColor.a < alphaTest ) discard;
	#endif
#endif`,y0=`#ifdef USE_ALPHATEST
	uniform float alphaTest;
#endif`,v0=`#ifdef USE_AOMAP
	float ambientOcclusion = ( texture2D( aoMap, vAoMapUv ).r - 1.0 ) * aoMapIntensity + 1.0;
	reflectedLight.indirectDiffuse *= ambientOcclusion;
	#if defined( USE_CLEARCOAT ) 
		clearcoatSpecularIndirect *= ambientOcclusion;
	#endif
	#if defined( USE_SHEEN ) 
		sheenSpecularIndirect *= ambientOcclusion;
	#endif
	#if defined( USE_ENVMAP ) && defined( STANDARD )
		float dotNV = saturate( dot( geometryNormal, geometryViewDir ) );
		reflectedLight.indirectSpecular *= computeSpecularOcclusion( dotNV, ambientOcclusion, material.roughness );
	#endif
#endif`,S0=`#ifdef USE_AOMAP
	uniform sampler2D aoMap;
	uniform float aoMapIntensity;
#endif`,M0=`#ifdef USE_BATCHING
	#if ! defined( GL_ANGLE_multi_draw )
	#define gl_DrawID _gl_DrawID
	uniform int _gl_DrawID;
	#endif
	uniform highp sampler2D batchingTexture;
	uniform highp usampler2D batchingIdTexture;
	mat4 getBatchingMatrix( const in float i ) {
		int size = textureSize( batchingTexture, 0 ).x;
		int j = int( i ) * 4;
		int x = j % size;
		int y = j / size;
		vec4 v1 = texelFetch( batchingTexture, ivec2( x, y ), 0 );
		vec4 v2 = texelFetch( batchingTexture, ivec2( x + 1, y ), 0 );
		vec4 v3 = texelFetch( batchingTexture, ivec2( x + 2, y ), 0 );
		vec4 v4 = texelFetch( batchingTexture, ivec2( x + 3, y ), 0 );
		return mat4( v1, v2, v3, v4 );
	}
	float getIndirectIndex( const in int i ) {
		int size = textureSize( batchingIdTexture, 0 ).x;
		int x = i % size;
		int y = i / size;
		return float( texelFetch( batchingIdTexture, ivec2( x, y ), 0 ).r );
	}
#endif
#ifdef USE_BATCHING_COLOR
	uniform sampler2D batchingColorTexture;
	vec4 getBatchingColor( const in float i ) {
		int size = textureSize( batchingColorTexture, 0 ).x;
		int j = int( i );
		int x = j % size;
		int y = j / size;
		return texelFetch( batchingColorTexture, ivec2( x, y ), 0 );
	}
#endif`,b0=`#ifdef USE_BATCHING
	mat4 batchingMatrix = getBatchingMatrix( getIndirectIndex( gl_DrawID ) );
#endif`,w0=`vec3 transformed = vec3( position );
#ifdef USE_ALPHAHASH
	vPosition = vec3( position );
#endif`,E0=`vec3 objectNormal = vec3( normal );
#ifdef USE_TANGENT
	vec3 objectTangent = vec3( tangent.xyz );
#endif`,T0=`float G_BlinnPhong_Implicit( ) {
	return 0.25;
}
float D_BlinnPhong( const in float shininess, const in float dotNH ) {
	return RECIPROCAL_PI * ( shininess * 0.5 + 1.0 ) * pow( dotNH, shininess );
}
vec3 BRDF_BlinnPhong( const in vec3 lightDir, const in vec3 viewDir, const in vec3 normal, const in vec3 specularColor, const in float shininess ) {
	vec3 halfDir = normalize( lightDir + viewDir );
	float dotNH = saturate( dot( normal, halfDir ) );
	float dotVH = saturate( dot( viewDir, halfDir ) );
	vec3 F = F_Schlick( specularColor, 1.0, dotVH );
	float G = G_BlinnPhong_Implicit( );
	float D = D_BlinnPhong( shininess, dotNH );
	return F * ( G * D );
} // validated`,A0=`#ifdef USE_IRIDESCENCE
	const mat3 XYZ_TO_REC709 = mat3(
		 3.2404542, -0.9692660,  0.0556434,
		-1.5371385,  1.8760108, -0.2040259,
		-0.4985314,  0.0415560,  1.0572252
	);
	vec3 Fresnel0ToIor( vec3 fresnel0 ) {
		vec3 sqrtF0 = sqrt( fresnel0 );
		return ( vec3( 1.0 ) + sqrtF0 ) / ( vec3( 1.0 ) - sqrtF0 );
	}
	vec3 IorToFresnel0( vec3 transmittedIor, float incidentIor ) {
		return pow2( ( transmittedIor - vec3( incidentIor ) ) / ( transmittedIor + vec3( incidentIor ) ) );
	}
	float IorToFresnel0( float transmittedIor, float incidentIor ) {
		return pow2( ( transmittedIor - incidentIor ) / ( transmittedIor + incidentIor ));
	}
	vec3 evalSensitivity( float OPD, vec3 shift ) {
		float phase = 2.0 * PI * OPD * 1.0e-9;
		vec3 val = vec3( 5.4856e-13, 4.4201e-13, 5.2481e-13 );
		vec3 pos = vec3( 1.6810e+06, 1.7953e+06, 2.2084e+06 );
		vec3 var = vec3( 4.3278e+09, 9.3046e+09, 6.6121e+09 );
		vec3 xyz = val * sqrt( 2.0 * PI * var ) * cos( pos * phase + shift ) * exp( - pow2( phase ) * var );
		xyz.x += 9.7470e-14 * sqrt( 2.0 * PI * 4.5282e+09 ) * cos( 2.2399e+06 * phase + shift[ 0 ] ) * exp( - 4.5282e+09 * pow2( phase ) );
		xyz /= 1.0685e-7;
		vec3 rgb = XYZ_TO_REC709 * xyz;
		return rgb;
	}
	vec3 evalIridescence( float outsideIOR, float eta2, float cosTheta1, float thinFilmThickness, vec3 baseF0 ) {
		vec3 I;
		float iridescenceIOR = mix( outsideIOR, eta2, smoothstep( 0.0, 0.03, thinFilmThickness ) );
		float sinTheta2Sq = pow2( outsideIOR / iridescenceIOR ) * ( 1.0 - pow2( cosTheta1 ) );
		float cosTheta2Sq = 1.0 - sinTheta2Sq;
		if ( cosTheta2Sq < 0.0 ) {
			return vec3( 1.0 );
		}
		float cosTheta2 = sqrt( cosTheta2Sq );
		float R0 = IorToFresnel0( iridescenceIOR, outsideIOR );
		float R12 = F_Schlick( R0, 1.0, cosTheta1 );
		float T121 = 1.0 - R12;
		float phi12 = 0.0;
		if ( iridescenceIOR < outsideIOR ) phi12 = PI;
		float phi21 = PI - phi12;
		vec3 baseIOR = Fresnel0ToIor( clamp( baseF0, 0.0, 0.9999 ) );		vec3 R1 = IorToFresnel0( baseIOR, iridescenceIOR );
		vec3 R23 = F_Schlick( R1, 1.0, cosTheta2 );
		vec3 phi23 = vec3( 0.0 );
		if ( baseIOR[ 0 ] < iridescenceIOR ) phi23[ 0 ] = PI;
		if ( baseIOR[ 1 ] < iridescenceIOR ) phi23[ 1 ] = PI;
		if ( baseIOR[ 2 ] < iridescenceIOR ) phi23[ 2 ] = PI;
		float OPD = 2.0 * iridescenceIOR * thinFilmThickness * cosTheta2;
		vec3 phi = vec3( phi21 ) + phi23;
		vec3 R123 = clamp( R12 * R23, 1e-5, 0.9999 );
		vec3 r123 = sqrt( R123 );
		vec3 Rs = pow2( T121 ) * R23 / ( vec3( 1.0 ) - R123 );
		vec3 C0 = R12 + Rs;
		I = C0;
		vec3 Cm = Rs - T121;
		for ( int m = 1; m <= 2; ++ m ) {
			Cm *= r123;
			vec3 Sm = 2.0 * evalSensitivity( float( m ) * OPD, float( m ) * phi );
			I += Cm * Sm;
		}
		return max( I, vec3( 0.0 ) );
	}
#endif`,R0=`#ifdef USE_BUMPMAP
	uniform sampler2D bumpMap;
	uniform float bumpScale;
	vec2 dHdxy_fwd() {
		vec2 dSTdx = dFdx( vBumpMapUv );
		vec2 dSTdy = dFdy( vBumpMapUv );
		float Hll = bumpScale * texture2D( bumpMap, vBumpMapUv ).x;
		float dBx = bumpScale * texture2D( bumpMap, vBumpMapUv + dSTdx ).x - Hll;
		float dBy = bumpScale * texture2D( bumpMap, vBumpMapUv + dSTdy ).x - Hll;
		return vec2( dBx, dBy );
	}
	vec3 perturbNormalArb( vec3 surf_pos, vec3 surf_norm, vec2 dHdxy, float faceDirection ) {
		vec3 vSigmaX = normalize( dFdx( surf_pos.xyz ) );
		vec3 vSigmaY = normalize( dFdy( surf_pos.xyz ) );
		vec3 vN = surf_norm;
		vec3 R1 = cross( vSigmaY, vN );
		vec3 R2 = cross( vN, vSigmaX );
		float fDet = dot( vSigmaX, R1 ) * faceDirection;
		vec3 vGrad = sign( fDet ) * ( dHdxy.x * R1 + dHdxy.y * R2 );
		return normalize( abs( fDet ) * surf_norm - vGrad );
	}
#endif`,C0=`#if NUM_CLIPPING_PLANES > 0
	vec4 plane;
	#ifdef ALPHA_TO_COVERAGE
		float distanceToPlane, distanceGradient;
		float clipOpacity = 1.0;
		#pragma unroll_loop_start
		for ( int i = 0; i < UNION_CLIPPING_PLANES; i ++ ) {
			plane = clippingPlanes[ i ];
			distanceToPlane = - dot( vClipPosition, plane.xyz ) + plane.w;
			distanceGradient = fwidth( distanceToPlane ) / 2.0;
			clipOpacity *= smoothstep( - distanceGradient, distanceGradient, distanceToPlane );
			if ( clipOpacity == 0.0 ) discard;
		}
		#pragma unroll_loop_end
		#if UNION_CLIPPING_PLANES < NUM_CLIPPING_PLANES
			float unionClipOpacity = 1.0;
			#pragma unroll_loop_start
			for ( int i = UNION_CLIPPING_PLANES; i < NUM_CLIPPING_PLANES; i ++ ) {
				plane = clippingPlanes[ i ];
				distanceToPlane = - dot( vClipPosition, plane.xyz ) + plane.w;
				distanceGradient = fwidth( distanceToPlane ) / 2.0;
				unionClipOpacity *= 1.0 - smoothstep( - distanceGradient, distanceGradient, distanceToPlane );
			}
			#pragma unroll_loop_end
			clipOpacity *= 1.0 - unionClipOpacity;
		#endif
		diffuseColor.a *= clipOpacity;
		if ( diffuseColor.a == 0.0 ) discard;
	#else
		#pragma unroll_loop_start
		for ( int i = 0; i < UNION_CLIPPING_PLANES; i ++ ) {
			plane = clippingPlanes[ i ];
			if ( dot( vClipPosition, plane.xyz ) > plane.w ) discard;
		}
		#pragma unroll_loop_end
		#if UNION_CLIPPING_PLANES < NUM_CLIPPING_PLANES
			bool clipped = true;
			#pragma unroll_loop_start
			for ( int i = UNION_CLIPPING_PLANES; i < NUM_CLIPPING_PLANES; i ++ ) {
				plane = clippingPlanes[ i ];
				clipped = ( dot( vClipPosition, plane.xyz ) > plane.w ) && clipped;
			}
			#pragma unroll_loop_end
			if ( clipped ) discard;
		#endif
	#endif
#endif`,P0=`#if NUM_CLIPPING_PLANES > 0
	varying vec3 vClipPosition;
	uniform vec4 clippingPlanes[ NUM_CLIPPING_PLANES ];
#endif`,I0=`#if NUM_CLIPPING_PLANES > 0
	varying vec3 vClipPosition;
#endif`,L0=`#if NUM_CLIPPING_PLANES > 0
	vClipPosition = - mvPosition.xyz;
#endif`,D0=`#if defined( USE_COLOR ) || defined( USE_COLOR_ALPHA )
	diffuseColor *= vColor;
#endif`,N0=`#if defined( USE_COLOR ) || defined( USE_COLOR_ALPHA )
	varying vec4 vColor;
#endif`,U0=`#if defined( USE_COLOR ) || defined( USE_COLOR_ALPHA ) || defined( USE_INSTANCING_COLOR ) || defined( USE_BATCHING_COLOR )
	varying vec4 vColor;
#endif`,F0=`#if defined( USE_COLOR ) || defined( USE_COLOR_ALPHA ) || defined( USE_INSTANCING_COLOR ) || defined( USE_BATCHING_COLOR )
	vColor = vec4( 1.0 );
#endif
#ifdef USE_COLOR_ALPHA
	vColor *= color;
#elif defined( USE_COLOR )
	vColor.rgb *= color;
#endif
#ifdef USE_INSTANCING_COLOR
	vColor.rgb *= instanceColor.rgb;
#endif
#ifdef USE_BATCHING_COLOR
	vColor *= getBatchingColor( getIndirectIndex( gl_DrawID ) );
#endif`,O0=`#define PI 3.141592653589793
#define PI2 6.283185307179586
#define PI_HALF 1.5707963267948966
#define RECIPROCAL_PI 0.3183098861837907
#define RECIPROCAL_PI2 0.15915494309189535
#define EPSILON 1e-6
#ifndef saturate
#define saturate( a ) clamp( a, 0.0, 1.0 )
#endif
#define whiteComplement( a ) ( 1.0 - saturate( a ) )
float pow2( const in float x ) { return x*x; }
vec3 pow2( const in vec3 x ) { return x*x; }
float pow3( const in float x ) { return x*x*x; }
float pow4( const in float x ) { float x2 = x*x; return x2*x2; }
float max3( const in vec3 v ) { return max( max( v.x, v.y ), v.z ); }
float average( const in vec3 v ) { return dot( v, vec3( 0.3333333 ) ); }
highp float rand( const in vec2 uv ) {
	const highp float a = 12.9898, b = 78.233, c = 43758.5453;
	highp float dt = dot( uv.xy, vec2( a,b ) ), sn = mod( dt, PI );
	return fract( sin( sn ) * c );
}
#ifdef HIGH_PRECISION
	float precisionSafeLength( vec3 v ) { return length( v ); }
#else
	float precisionSafeLength( vec3 v ) {
		float maxComponent = max3( abs( v ) );
		return length( v / maxComponent ) * maxComponent;
	}
#endif
struct IncidentLight {
	vec3 color;
	vec3 direction;
	bool visible;
};
struct ReflectedLight {
	vec3 directDiffuse;
	vec3 directSpecular;
	vec3 indirectDiffuse;
	vec3 indirectSpecular;
};
#ifdef USE_ALPHAHASH
	varying vec3 vPosition;
#endif
vec3 transformDirection( in vec3 dir, in mat4 matrix ) {
	return normalize( ( matrix * vec4( dir, 0.0 ) ).xyz );
}
#define inverseTransformDirection transformDirectionByInverseViewMatrix
vec3 transformNormalByInverseViewMatrix( in vec3 normal, in mat4 viewMatrix ) {
	return normalize( ( vec4( normal, 0.0 ) * viewMatrix ).xyz );
}
vec3 transformDirectionByInverseViewMatrix( in vec3 dir, in mat4 viewMatrix ) {
	return normalize( ( vec4( dir, 0.0 ) * viewMatrix ).xyz );
}
bool isPerspectiveMatrix( mat4 m ) {
	return m[ 2 ][ 3 ] == - 1.0;
}
vec2 equirectUv( in vec3 dir ) {
	float u = atan( dir.z, dir.x ) * RECIPROCAL_PI2 + 0.5;
	float v = asin( clamp( dir.y, - 1.0, 1.0 ) ) * RECIPROCAL_PI + 0.5;
	return vec2( u, v );
}
vec3 BRDF_Lambert( const in vec3 diffuseColor ) {
	return RECIPROCAL_PI * diffuseColor;
}
vec3 F_Schlick( const in vec3 f0, const in float f90, const in float dotVH ) {
	float fresnel = exp2( ( - 5.55473 * dotVH - 6.98316 ) * dotVH );
	return f0 * ( 1.0 - fresnel ) + ( f90 * fresnel );
}
float F_Schlick( const in float f0, const in float f90, const in float dotVH ) {
	float fresnel = exp2( ( - 5.55473 * dotVH - 6.98316 ) * dotVH );
	return f0 * ( 1.0 - fresnel ) + ( f90 * fresnel );
} // validated`,B0=`vec3 transformedNormal = objectNormal;
#ifdef USE_TANGENT
	vec3 transformedTangent = objectTangent;
#endif
#ifdef USE_BATCHING
	mat3 bm = mat3( batchingMatrix );
	transformedNormal /= vec3( dot( bm[ 0 ], bm[ 0 ] ), dot( bm[ 1 ], bm[ 1 ] ), dot( bm[ 2 ], bm[ 2 ] ) );
	transformedNormal = bm * transformedNormal;
	#ifdef USE_TANGENT
		transformedTangent = bm * transformedTangent;
	#endif
#endif
#ifdef USE_INSTANCING
	mat3 im = mat3( instanceMatrix );
	transformedNormal /= vec3( dot( im[ 0 ], im[ 0 ] ), dot( im[ 1 ], im[ 1 ] ), dot( im[ 2 ], im[ 2 ] ) );
	transformedNormal = im * transformedNormal;
	#ifdef USE_TANGENT
		transformedTangent = im * transformedTangent;
	#endif
#endif
transformedNormal = normalMatrix * transformedNormal;
#ifdef FLIP_SIDED
	transformedNormal = - transformedNormal;
#endif
#ifdef USE_TANGENT
	transformedTangent = ( modelViewMatrix * vec4( transformedTangent, 0.0 ) ).xyz;
#endif`,k0=`#ifdef USE_DISPLACEMENTMAP
	uniform sampler2D displacementMap;
	uniform float displacementScale;
	uniform float displacementBias;
#endif`,z0=`#ifdef USE_DISPLACEMENTMAP
	transformed += normalize( objectNormal ) * ( texture2D( displacementMap, vDisplacementMapUv ).x * displacementScale + displacementBias );
#endif`,V0=`#ifdef USE_EMISSIVEMAP
	vec4 emissiveColor = texture2D( emissiveMap, vEmissiveMapUv );
	#ifdef DECODE_VIDEO_TEXTURE_EMISSIVE
		emissiveColor = sRGBTransferEOTF( emissiveColor );
	#endif
	totalEmissiveRadiance *= emissiveColor.rgb;
#endif`,G0=`#ifdef USE_EMISSIVEMAP
	uniform sampler2D emissiveMap;
#endif`,H0="gl_FragColor = linearToOutputTexel( gl_FragColor );",W0=`vec4 LinearTransferOETF( in vec4 value ) {
	return value;
}
vec4 sRGBTransferEOTF( in vec4 value ) {
	return vec4( mix( pow( value.rgb * 0.9478672986 + vec3( 0.0521327014 ), vec3( 2.4 ) ), value.rgb * 0.0773993808, vec3( lessThanEqual( value.rgb, vec3( 0.04045 ) ) ) ), value.a );
}
vec4 sRGBTransferOETF( in vec4 value ) {
	return vec4( mix( pow( value.rgb, vec3( 0.41666 ) ) * 1.055 - vec3( 0.055 ), value.rgb * 12.92, vec3( lessThanEqual( value.rgb, vec3( 0.0031308 ) ) ) ), value.a );
}`,X0=`#ifdef USE_ENVMAP
	#ifdef ENV_WORLDPOS
		vec3 cameraToFrag;
		if ( isOrthographic ) {
			cameraToFrag = normalize( vec3( - viewMatrix[ 0 ][ 2 ], - viewMatrix[ 1 ][ 2 ], - viewMatrix[ 2 ][ 2 ] ) );
		} else {
			cameraToFrag = normalize( vWorldPosition - cameraPosition );
		}
		vec3 worldNormal = transformNormalByInverseViewMatrix( normal, viewMatrix );
		#ifdef ENVMAP_MODE_REFLECTION
			vec3 reflectVec = reflect( cameraToFrag, worldNormal );
		#else
			vec3 reflectVec = refract( cameraToFrag, worldNormal, refractionRatio );
		#endif
	#else
		vec3 reflectVec = vReflect;
	#endif
	#ifdef ENVMAP_TYPE_CUBE
		vec4 envColor = textureCube( envMap, envMapRotation * reflectVec );
		#ifdef ENVMAP_BLENDING_MULTIPLY
			outgoingLight = mix( outgoingLight, outgoingLight * envColor.xyz, specularStrength * reflectivity );
		#elif defined( ENVMAP_BLENDING_MIX )
			outgoingLight = mix( outgoingLight, envColor.xyz, specularStrength * reflectivity );
		#elif defined( ENVMAP_BLENDING_ADD )
			outgoingLight += envColor.xyz * specularStrength * reflectivity;
		#endif
	#endif
#endif`,q0=`#ifdef USE_ENVMAP
	uniform float envMapIntensity;
	uniform mat3 envMapRotation;
	uniform samplerCube envMap;
	#ifdef ENVMAP_TYPE_PMREM
		float roughnessToMip( const in float roughness ) {
			float r = clamp( roughness, 0.0, 1.0 );
			return ENVMAP_MAX_LOD * r * ( 2.0 - r );
		}
	#endif
#endif`,$0=`#ifdef USE_ENVMAP
	uniform float reflectivity;
	#if defined( USE_BUMPMAP ) || defined( USE_NORMALMAP ) || defined( PHONG ) || defined( LAMBERT )
		#define ENV_WORLDPOS
	#endif
	#ifdef ENV_WORLDPOS
		varying vec3 vWorldPosition;
		uniform float refractionRatio;
	#else
		varying vec3 vReflect;
	#endif
#endif`,Y0=`#ifdef USE_ENVMAP
	#if defined( USE_BUMPMAP ) || defined( USE_NORMALMAP ) || defined( PHONG ) || defined( LAMBERT )
		#define ENV_WORLDPOS
	#endif
	#ifdef ENV_WORLDPOS
		
		varying vec3 vWorldPosition;
	#else
		varying vec3 vReflect;
		uniform float refractionRatio;
	#endif
#endif`,Z0=`#ifdef USE_ENVMAP
	#ifdef ENV_WORLDPOS
		vWorldPosition = worldPosition.xyz;
	#else
		vec3 cameraToVertex;
		if ( isOrthographic ) {
			cameraToVertex = normalize( vec3( - viewMatrix[ 0 ][ 2 ], - viewMatrix[ 1 ][ 2 ], - viewMatrix[ 2 ][ 2 ] ) );
		} else {
			cameraToVertex = normalize( worldPosition.xyz - cameraPosition );
		}
		vec3 worldNormal = transformNormalByInverseViewMatrix( transformedNormal, viewMatrix );
		#ifdef ENVMAP_MODE_REFLECTION
			vReflect = reflect( cameraToVertex, worldNormal );
		#else
			vReflect = refract( cameraToVertex, worldNormal, refractionRatio );
		#endif
	#endif
#endif`,J0=`#ifdef USE_FOG
	vFogDepth = - mvPosition.z;
#endif`,K0=`#ifdef USE_FOG
	varying float vFogDepth;
#endif`,j0=`#ifdef USE_FOG
	#ifdef FOG_EXP2
		float fogFactor = 1.0 - exp( - fogDensity * fogDensity * vFogDepth * vFogDepth );
	#else
		float fogFactor = smoothstep( fogNear, fogFar, vFogDepth );
	#endif
	gl_FragColor.rgb = mix( gl_FragColor.rgb, fogColor, fogFactor );
#endif`,Q0=`#ifdef USE_FOG
	uniform vec3 fogColor;
	varying float vFogDepth;
	#ifdef FOG_EXP2
		uniform float fogDensity;
	#else
		uniform float fogNear;
		uniform float fogFar;
	#endif
#endif`,t_=`#ifdef USE_GRADIENTMAP
	uniform sampler2D gradientMap;
#endif
vec3 getGradientIrradiance( vec3 normal, vec3 lightDirection ) {
	float dotNL = dot( normal, lightDirection );
	vec2 coord = vec2( dotNL * 0.5 + 0.5, 0.0 );
	#ifdef USE_GRADIENTMAP
		return vec3( texture2D( gradientMap, coord ).r );
	#else
		vec2 fw = fwidth( coord ) * 0.5;
		return mix( vec3( 0.7 ), vec3( 1.0 ), smoothstep( 0.7 - fw.x, 0.7 + fw.x, coord.x ) );
	#endif
}`,e_=`#ifdef USE_LIGHTMAP
	uniform sampler2D lightMap;
	uniform float lightMapIntensity;
#endif`,n_=`LambertMaterial material;
material.diffuseColor = diffuseColor.rgb;
material.specularStrength = specularStrength;`,i_=`varying vec3 vViewPosition;
struct LambertMaterial {
	vec3 diffuseColor;
	float specularStrength;
};
void RE_Direct_Lambert( const in IncidentLight directLight, const in vec3 geometryPosition, const in vec3 geometryNormal, const in vec3 geometryViewDir, const in vec3 geometryClearcoatNormal, const in LambertMaterial material, inout ReflectedLight reflectedLight ) {
	float dotNL = saturate( dot( geometryNormal, directLight.direction ) );
	vec3 irradiance = dotNL * directLight.color;
	reflectedLight.directDiffuse += irradiance * BRDF_Lambert( material.diffuseColor );
}
void RE_IndirectDiffuse_Lambert( const in vec3 irradiance, const in vec3 geometryPosition, const in vec3 geometryNormal, const in vec3 geometryViewDir, const in vec3 geometryClearcoatNormal, const in LambertMaterial material, inout ReflectedLight reflectedLight ) {
	reflectedLight.indirectDiffuse += irradiance * BRDF_Lambert( material.diffuseColor );
}
#define RE_Direct				RE_Direct_Lambert
#define RE_IndirectDiffuse		RE_IndirectDiffuse_Lambert`,s_=`uniform bool receiveShadow;
uniform vec3 ambientLightColor;
#if defined( USE_LIGHT_PROBES )
	uniform vec3 lightProbe[ 9 ];
#endif
vec3 shGetIrradianceAt( in vec3 normal, in vec3 shCoefficients[ 9 ] ) {
	float x = normal.x, y = normal.y, z = normal.z;
	vec3 result = shCoefficients[ 0 ] * 0.886227;
	result += shCoefficients[ 1 ] * 2.0 * 0.511664 * y;
	result += shCoefficients[ 2 ] * 2.0 * 0.511664 * z;
	result += shCoefficients[ 3 ] * 2.0 * 0.511664 * x;
	result += shCoefficients[ 4 ] * 2.0 * 0.429043 * x * y;
	result += shCoefficients[ 5 ] * 2.0 * 0.429043 * y * z;
	result += shCoefficients[ 6 ] * ( 0.743125 * z * z - 0.247708 );
	result += shCoefficients[ 7 ] * 2.0 * 0.429043 * x * z;
	result += shCoefficients[ 8 ] * 0.429043 * ( x * x - y * y );
	return result;
}
vec3 getLightProbeIrradiance( const in vec3 lightProbe[ 9 ], const in vec3 normal ) {
	vec3 worldNormal = transformNormalByInverseViewMatrix( normal, viewMatrix );
	vec3 irradiance = shGetIrradianceAt( worldNormal, lightProbe );
	return irradiance;
}
vec3 getAmbientLightIrradiance( const in vec3 ambientLightColor ) {
	vec3 irradiance = ambientLightColor;
	return irradiance;
}
float getDistanceAttenuation( const in float lightDistance, const in float cutoffDistance, const in float decayExponent ) {
	float distanceFalloff = 1.0 / max( pow( lightDistance, decayExponent ), 0.01 );
	if ( cutoffDistance > 0.0 ) {
		distanceFalloff *= pow2( saturate( 1.0 - pow4( lightDistance / cutoffDistance ) ) );
	}
	return distanceFalloff;
}
float getSpotAttenuation( const in float coneCosine, const in float penumbraCosine, const in float angleCosine ) {
	return smoothstep( coneCosine, penumbraCosine, angleCosine );
}
#if NUM_SUN_LIGHTS > 0
	struct SunLight {
		vec3 direction;
		vec3 color;
	};
	uniform SunLight sunLights[ NUM_SUN_LIGHTS ];
	void getSunLightInfo( const in SunLight sunLight, out IncidentLight light ) {
		light.color = sunLight.color;
		light.direction = sunLight.direction;
		light.visible = true;
	}
#endif
#if NUM_DIR_LIGHTS > 0
	struct DirectionalLight {
		vec3 direction;
		vec3 color;
	};
	uniform DirectionalLight directionalLights[ NUM_DIR_LIGHTS ];
	void getDirectionalLightInfo( const in DirectionalLight directionalLight, out IncidentLight light ) {
		light.color = directionalLight.color;
		light.direction = directionalLight.direction;
		light.visible = true;
	}
#endif
#if NUM_POINT_LIGHTS > 0
	struct PointLight {
		vec3 position;
		vec3 color;
		float distance;
		float decay;
	};
	uniform PointLight pointLights[ NUM_POINT_LIGHTS ];
	void getPointLightInfo( const in PointLight pointLight, const in vec3 geometryPosition, out IncidentLight light ) {
		vec3 lVector = pointLight.position - geometryPosition;
		light.direction = normalize( lVector );
		float lightDistance = length( lVector );
		light.color = pointLight.color;
		light.color *= getDistanceAttenuation( lightDistance, pointLight.distance, pointLight.decay );
		light.visible = ( light.color != vec3( 0.0 ) );
	}
#endif
#if NUM_SPOT_LIGHTS > 0
	struct SpotLight {
		vec3 position;
		vec3 direction;
		vec3 color;
		float distance;
		float decay;
		float coneCos;
		float penumbraCos;
	};
	uniform SpotLight spotLights[ NUM_SPOT_LIGHTS ];
	void getSpotLightInfo( const in SpotLight spotLight, const in vec3 geometryPosition, out IncidentLight light ) {
		vec3 lVector = spotLight.position - geometryPosition;
		light.direction = normalize( lVector );
		float angleCos = dot( light.direction, spotLight.direction );
		float spotAttenuation = getSpotAttenuation( spotLight.coneCos, spotLight.penumbraCos, angleCos );
		if ( spotAttenuation > 0.0 ) {
			float lightDistance = length( lVector );
			light.color = spotLight.color * spotAttenuation;
			light.color *= getDistanceAttenuation( lightDistance, spotLight.distance, spotLight.decay );
			light.visible = ( light.color != vec3( 0.0 ) );
		} else {
			light.color = vec3( 0.0 );
			light.visible = false;
		}
	}
#endif
#if NUM_RECT_AREA_LIGHTS > 0
	struct RectAreaLight {
		vec3 color;
		vec3 position;
		vec3 halfWidth;
		vec3 halfHeight;
	};
	uniform sampler2D ltc_1;	uniform sampler2D ltc_2;
	uniform RectAreaLight rectAreaLights[ NUM_RECT_AREA_LIGHTS ];
#endif
#if NUM_HEMI_LIGHTS > 0
	struct HemisphereLight {
		vec3 direction;
		vec3 skyColor;
		vec3 groundColor;
	};
	uniform HemisphereLight hemisphereLights[ NUM_HEMI_LIGHTS ];
	vec3 getHemisphereLightIrradiance( const in HemisphereLight hemiLight, const in vec3 normal ) {
		float dotNL = dot( normal, hemiLight.direction );
		float hemiDiffuseWeight = 0.5 * dotNL + 0.5;
		vec3 irradiance = mix( hemiLight.groundColor, hemiLight.skyColor, hemiDiffuseWeight );
		return irradiance;
	}
#endif
#include <lightprobes_pars_fragment>`,r_=`#ifdef USE_ENVMAP
	vec3 getIBLIrradiance( const in vec3 normal ) {
		#ifdef ENVMAP_TYPE_PMREM
			vec3 worldNormal = transformNormalByInverseViewMatrix( normal, viewMatrix );
			vec4 envMapColor = textureLod( envMap, envMapRotation * worldNormal, ENVMAP_MAX_LOD );
			return PI * envMapColor.rgb * envMapIntensity;
		#else
			return vec3( 0.0 );
		#endif
	}
	vec3 getIBLRadiance( const in vec3 viewDir, const in vec3 normal, const in float roughness ) {
		#ifdef ENVMAP_TYPE_PMREM
			vec3 reflectVec = reflect( - viewDir, normal );
			reflectVec = normalize( mix( reflectVec, normal, pow4( roughness ) ) );
			reflectVec = transformDirectionByInverseViewMatrix( reflectVec, viewMatrix );
			vec4 envMapColor = textureLod( envMap, envMapRotation * reflectVec, roughnessToMip( roughness ) );
			return envMapColor.rgb * envMapIntensity;
		#else
			return vec3( 0.0 );
		#endif
	}
	#ifdef USE_RETROREFLECTION
		vec3 getIBLRetroRadiance( const in vec3 viewDir, const in vec3 normal, const in float roughness ) {
			#ifdef ENVMAP_TYPE_PMREM
				vec3 retroVec = normalize( mix( viewDir, normal, pow4( roughness ) ) );
				retroVec = transformDirectionByInverseViewMatrix( retroVec, viewMatrix );
				vec4 envMapColor = textureLod( envMap, envMapRotation * retroVec, roughnessToMip( roughness ) );
				return envMapColor.rgb * envMapIntensity;
			#else
				return vec3( 0.0 );
			#endif
		}
	#endif
	#ifdef USE_ANISOTROPY
		vec3 getIBLAnisotropyRadiance( const in vec3 viewDir, const in vec3 normal, const in float roughness, const in vec3 bitangent, const in float anisotropy ) {
			#ifdef ENVMAP_TYPE_PMREM
				vec3 bentNormal = cross( bitangent, viewDir );
				bentNormal = normalize( cross( bentNormal, bitangent ) );
				bentNormal = normalize( mix( bentNormal, normal, pow2( pow2( 1.0 - anisotropy * ( 1.0 - roughness ) ) ) ) );
				return getIBLRadiance( viewDir, bentNormal, roughness );
			#else
				return vec3( 0.0 );
			#endif
		}
		#ifdef USE_RETROREFLECTION
			vec3 getIBLAnisotropyRetroRadiance( const in vec3 viewDir, const in vec3 normal, const in float roughness, const in vec3 bitangent, const in float anisotropy ) {
				#ifdef ENVMAP_TYPE_PMREM
					vec3 bentNormal = cross( bitangent, viewDir );
					bentNormal = normalize( cross( bentNormal, bitangent ) );
					bentNormal = normalize( mix( bentNormal, normal, pow2( pow2( 1.0 - anisotropy * ( 1.0 - roughness ) ) ) ) );
					return getIBLRetroRadiance( viewDir, bentNormal, roughness );
				#else
					return vec3( 0.0 );
				#endif
			}
		#endif
	#endif
#endif`,a_=`ToonMaterial material;
material.diffuseColor = diffuseColor.rgb;`,o_=`varying vec3 vViewPosition;
struct ToonMaterial {
	vec3 diffuseColor;
};
void RE_Direct_Toon( const in IncidentLight directLight, const in vec3 geometryPosition, const in vec3 geometryNormal, const in vec3 geometryViewDir, const in vec3 geometryClearcoatNormal, const in ToonMaterial material, inout ReflectedLight reflectedLight ) {
	vec3 irradiance = getGradientIrradiance( geometryNormal, directLight.direction ) * directLight.color;
	reflectedLight.directDiffuse += irradiance * BRDF_Lambert( material.diffuseColor );
}
void RE_IndirectDiffuse_Toon( const in vec3 irradiance, const in vec3 geometryPosition, const in vec3 geometryNormal, const in vec3 geometryViewDir, const in vec3 geometryClearcoatNormal, const in ToonMaterial material, inout ReflectedLight reflectedLight ) {
	reflectedLight.indirectDiffuse += irradiance * BRDF_Lambert( material.diffuseColor );
}
#define RE_Direct				RE_Direct_Toon
#define RE_IndirectDiffuse		RE_IndirectDiffuse_Toon`,l_=`BlinnPhongMaterial material;
material.diffuseColor = diffuseColor.rgb;
material.specularColor = specular;
material.specularShininess = shininess;
material.specularStrength = specularStrength;`,c_=`varying vec3 vViewPosition;
struct BlinnPhongMaterial {
	vec3 diffuseColor;
	vec3 specularColor;
	float specularShininess;
	float specularStrength;
};
void RE_Direct_BlinnPhong( const in IncidentLight directLight, const in vec3 geometryPosition, const in vec3 geometryNormal, const in vec3 geometryViewDir, const in vec3 geometryClearcoatNormal, const in BlinnPhongMaterial material, inout ReflectedLight reflectedLight ) {
	float dotNL = saturate( dot( geometryNormal, directLight.direction ) );
	vec3 irradiance = dotNL * directLight.color;
	reflectedLight.directDiffuse += irradiance * BRDF_Lambert( material.diffuseColor );
	reflectedLight.directSpecular += irradiance * BRDF_BlinnPhong( directLight.direction, geometryViewDir, geometryNormal, material.specularColor, material.specularShininess ) * material.specularStrength;
}
void RE_IndirectDiffuse_BlinnPhong( const in vec3 irradiance, const in vec3 geometryPosition, const in vec3 geometryNormal, const in vec3 geometryViewDir, const in vec3 geometryClearcoatNormal, const in BlinnPhongMaterial material, inout ReflectedLight reflectedLight ) {
	reflectedLight.indirectDiffuse += irradiance * BRDF_Lambert( material.diffuseColor );
}
#define RE_Direct				RE_Direct_BlinnPhong
#define RE_IndirectDiffuse		RE_IndirectDiffuse_BlinnPhong`,h_=`PhysicalMaterial material;
material.diffuseColor = diffuseColor.rgb;
material.diffuseContribution = diffuseColor.rgb * ( 1.0 - metalnessFactor );
material.metalness = metalnessFactor;
vec3 dxy = max( abs( dFdx( nonPerturbedNormal ) ), abs( dFdy( nonPerturbedNormal ) ) );
float geometryRoughness = max( max( dxy.x, dxy.y ), dxy.z );
material.roughness = max( roughnessFactor, 0.045 );
material.roughness += geometryRoughness;
material.roughness = min( material.roughness, 1.0 );
#ifdef USE_DIFFUSE_ROUGHNESS
	float diffuseRoughnessFactor = diffuseRoughness;
	#ifdef USE_DIFFUSE_ROUGHNESSMAP
		diffuseRoughnessFactor *= texture2D( diffuseRoughnessMap, vDiffuseRoughnessMapUv ).r;
	#endif
	material.diffuseRoughness = saturate( diffuseRoughnessFactor );
#endif
#ifdef IOR
	material.ior = ior;
	#ifdef USE_SPECULAR
		float specularIntensityFactor = specularIntensity;
		vec3 specularColorFactor = specularColor;
		#ifdef USE_SPECULAR_COLORMAP
			specularColorFactor *= texture2D( specularColorMap, vSpecularColorMapUv ).rgb;
		#endif
		#ifdef USE_SPECULAR_INTENSITYMAP
			specularIntensityFactor *= texture2D( specularIntensityMap, vSpecularIntensityMapUv ).a;
		#endif
		material.specularF90 = mix( specularIntensityFactor, 1.0, metalnessFactor );
	#else
		float specularIntensityFactor = 1.0;
		vec3 specularColorFactor = vec3( 1.0 );
		material.specularF90 = 1.0;
	#endif
	material.specularColor = min( pow2( ( material.ior - 1.0 ) / ( material.ior + 1.0 ) ) * specularColorFactor, vec3( 1.0 ) ) * specularIntensityFactor;
	material.specularColorBlended = mix( material.specularColor, diffuseColor.rgb, metalnessFactor );
#else
	material.specularColor = vec3( 0.04 );
	material.specularColorBlended = mix( material.specularColor, diffuseColor.rgb, metalnessFactor );
	material.specularF90 = 1.0;
#endif
#ifdef USE_CLEARCOAT
	material.clearcoat = clearcoat;
	material.clearcoatRoughness = clearcoatRoughness;
	material.clearcoatF0 = vec3( 0.04 );
	material.clearcoatF90 = 1.0;
	#ifdef USE_CLEARCOATMAP
		material.clearcoat *= texture2D( clearcoatMap, vClearcoatMapUv ).x;
	#endif
	#ifdef USE_CLEARCOAT_ROUGHNESSMAP
		material.clearcoatRoughness *= texture2D( clearcoatRoughnessMap, vClearcoatRoughnessMapUv ).y;
	#endif
	material.clearcoat = saturate( material.clearcoat );	material.clearcoatRoughness = max( material.clearcoatRoughness, 0.045 );
	material.clearcoatRoughness += geometryRoughness;
	material.clearcoatRoughness = min( material.clearcoatRoughness, 1.0 );
#endif
#ifdef USE_DISPERSION
	material.dispersion = dispersion;
#endif
#ifdef USE_RETROREFLECTION
	material.retroreflectivity = retroreflectivity;
#endif
#ifdef USE_IRIDESCENCE
	material.iridescence = iridescence;
	material.iridescenceIOR = iridescenceIOR;
	#ifdef USE_IRIDESCENCEMAP
		material.iridescence *= texture2D( iridescenceMap, vIridescenceMapUv ).r;
	#endif
	#ifdef USE_IRIDESCENCE_THICKNESSMAP
		material.iridescenceThickness = (iridescenceThicknessMaximum - iridescenceThicknessMinimum) * texture2D( iridescenceThicknessMap, vIridescenceThicknessMapUv ).g + iridescenceThicknessMinimum;
	#else
		material.iridescenceThickness = iridescenceThicknessMaximum;
	#endif
#endif
#ifdef USE_SHEEN
	material.sheenColor = sheenColor;
	#ifdef USE_SHEEN_COLORMAP
		material.sheenColor *= texture2D( sheenColorMap, vSheenColorMapUv ).rgb;
	#endif
	material.sheenRoughness = clamp( sheenRoughness, 0.0001, 1.0 );
	#ifdef USE_SHEEN_ROUGHNESSMAP
		material.sheenRoughness *= texture2D( sheenRoughnessMap, vSheenRoughnessMapUv ).a;
	#endif
#endif
#ifdef USE_ANISOTROPY
	#ifdef USE_ANISOTROPYMAP
		mat2 anisotropyMat = mat2( anisotropyVector.x, anisotropyVector.y, - anisotropyVector.y, anisotropyVector.x );
		vec3 anisotropyPolar = texture2D( anisotropyMap, vAnisotropyMapUv ).rgb;
		vec2 anisotropyV = anisotropyMat * normalize( 2.0 * anisotropyPolar.rg - vec2( 1.0 ) ) * anisotropyPolar.b;
	#else
		vec2 anisotropyV = anisotropyVector;
	#endif
	material.anisotropy = length( anisotropyV );
	if( material.anisotropy == 0.0 ) {
		anisotropyV = vec2( 1.0, 0.0 );
	} else {
		anisotropyV /= material.anisotropy;
		material.anisotropy = saturate( material.anisotropy );
	}
	material.alphaT = mix( pow2( material.roughness ), 1.0, pow2( material.anisotropy ) );
	material.anisotropyT = tbn[ 0 ] * anisotropyV.x + tbn[ 1 ] * anisotropyV.y;
	material.anisotropyB = tbn[ 1 ] * anisotropyV.x - tbn[ 0 ] * anisotropyV.y;
#endif`,u_=`uniform sampler2D dfgLUT;
struct PhysicalMaterial {
	vec3 diffuseColor;
	vec3 diffuseContribution;
	vec3 specularColor;
	vec3 specularColorBlended;
	float roughness;
	float metalness;
	float specularF90;
	float dispersion;
	vec2 dfg;
	vec3 multiScatteringCompensation;
	#ifdef USE_DIFFUSE_ROUGHNESS
		float diffuseRoughness;
	#endif
	#ifdef USE_RETROREFLECTION
		float retroreflectivity;
	#endif
	#ifdef USE_CLEARCOAT
		float clearcoat;
		float clearcoatRoughness;
		vec3 clearcoatF0;
		float clearcoatF90;
	#endif
	#ifdef USE_IRIDESCENCE
		float iridescence;
		float iridescenceIOR;
		float iridescenceThickness;
		vec3 iridescenceFresnel;
		vec3 iridescenceF0Dielectric;
		vec3 iridescenceF0Metallic;
	#endif
	#ifdef USE_SHEEN
		vec3 sheenColor;
		float sheenRoughness;
	#endif
	#ifdef IOR
		float ior;
	#endif
	#ifdef USE_TRANSMISSION
		float transmission;
		float transmissionAlpha;
		float thickness;
		float attenuationDistance;
		vec3 attenuationColor;
	#endif
	#ifdef USE_ANISOTROPY
		float anisotropy;
		float alphaT;
		vec3 anisotropyT;
		vec3 anisotropyB;
	#endif
};
vec3 clearcoatSpecularDirect = vec3( 0.0 );
vec3 clearcoatSpecularIndirect = vec3( 0.0 );
vec3 sheenSpecularDirect = vec3( 0.0 );
vec3 sheenSpecularIndirect = vec3(0.0 );
vec3 Schlick_to_F0( const in vec3 f, const in float f90, const in float dotVH ) {
    float x = clamp( 1.0 - dotVH, 0.0, 1.0 );
    float x2 = x * x;
    float x5 = clamp( x * x2 * x2, 0.0, 0.9999 );
    return ( f - vec3( f90 ) * x5 ) / ( 1.0 - x5 );
}
#ifdef USE_DIFFUSE_ROUGHNESS
	const float EON_EPSILON = 1e-7;
	float FON_DirectionalAlbedo( const in float mu, const in float roughness, const in float A ) {
		float muComp = 1.0 - mu;
		float gOverPi = muComp * ( 0.0571085289 + muComp * ( 0.491881867 + muComp * ( - 0.332181442 + muComp * 0.0714429953 ) ) );
		return A * ( 1.0 + roughness * gOverPi );
	}
	vec3 BRDF_EON( const in vec3 lightDir, const in vec3 viewDir, const in vec3 normal, const in vec3 diffuseColor, const in float roughness ) {
		vec3 rho = saturate( diffuseColor );
		if ( roughness <= EON_EPSILON ) return BRDF_Lambert( rho );
		float dotNL = saturate( dot( normal, lightDir ) );
		float dotNV = saturate( dot( normal, viewDir ) );
		float s = dot( lightDir, viewDir ) - dotNL * dotNV;
		float sOverT = ( s > 0.0 ) ? s / max( max( dotNL, dotNV ), EON_EPSILON ) : s;
		float A = 1.0 / ( 1.0 + ( 0.5 - 2.0 / ( 3.0 * PI ) ) * roughness );
		vec3 singleScatter = rho * RECIPROCAL_PI * A * ( 1.0 + roughness * sOverT );
		float averageAlbedo = A * ( 1.0 + ( 2.0 / 3.0 - 28.0 / ( 15.0 * PI ) ) * roughness );
		float albedoV = FON_DirectionalAlbedo( dotNV, roughness, A );
		float albedoL = FON_DirectionalAlbedo( dotNL, roughness, A );
		vec3 rhoMultiScatter = rho * rho * averageAlbedo / max( vec3( EON_EPSILON ), vec3( 1.0 ) - rho * ( 1.0 - averageAlbedo ) );
		vec3 multiScatter = rhoMultiScatter * RECIPROCAL_PI
			* max( EON_EPSILON, 1.0 - albedoV )
			* max( EON_EPSILON, 1.0 - albedoL )
			/ max( EON_EPSILON, 1.0 - averageAlbedo );
		return singleScatter + multiScatter;
	}
	vec3 EON_DirectionalAlbedo( const in vec3 diffuseColor, const in float roughness, const in float dotNV ) {
		vec3 rho = saturate( diffuseColor );
		if ( roughness <= EON_EPSILON ) return rho;
		float A = 1.0 / ( 1.0 + ( 0.5 - 2.0 / ( 3.0 * PI ) ) * roughness );
		float directionalAlbedo = FON_DirectionalAlbedo( dotNV, roughness, A );
		float averageAlbedo = A * ( 1.0 + ( 2.0 / 3.0 - 28.0 / ( 15.0 * PI ) ) * roughness );
		vec3 rhoMultiScatter = rho * rho * averageAlbedo / max( vec3( EON_EPSILON ), vec3( 1.0 ) - rho * ( 1.0 - averageAlbedo ) );
		return rho * directionalAlbedo + rhoMultiScatter * ( 1.0 - directionalAlbedo );
	}
#endif
float V_GGX_SmithCorrelated( const in float alpha, const in float dotNL, const in float dotNV ) {
	float a2 = pow2( alpha );
	float gv = dotNL * sqrt( a2 + ( 1.0 - a2 ) * pow2( dotNV ) );
	float gl = dotNV * sqrt( a2 + ( 1.0 - a2 ) * pow2( dotNL ) );
	return 0.5 / max( gv + gl, EPSILON );
}
float D_GGX( const in float alpha, const in float dotNH ) {
	float a2 = pow2( alpha );
	float denom = pow2( dotNH ) * ( a2 - 1.0 ) + 1.0;
	return RECIPROCAL_PI * a2 / pow2( denom );
}
#ifdef USE_ANISOTROPY
	float V_GGX_SmithCorrelated_Anisotropic( const in float alphaT, const in float alphaB, const in float dotTV, const in float dotBV, const in float dotTL, const in float dotBL, const in float dotNV, const in float dotNL ) {
		float gv = dotNL * length( vec3( alphaT * dotTV, alphaB * dotBV, dotNV ) );
		float gl = dotNV * length( vec3( alphaT * dotTL, alphaB * dotBL, dotNL ) );
		return 0.5 / max( gv + gl, EPSILON );
	}
	float D_GGX_Anisotropic( const in float alphaT, const in float alphaB, const in float dotNH, const in float dotTH, const in float dotBH ) {
		float a2 = alphaT * alphaB;
		highp vec3 v = vec3( alphaB * dotTH, alphaT * dotBH, a2 * dotNH );
		highp float v2 = dot( v, v );
		float w2 = a2 / v2;
		return RECIPROCAL_PI * a2 * pow2 ( w2 );
	}
#endif
#ifdef USE_CLEARCOAT
	vec3 BRDF_GGX_Clearcoat( const in vec3 lightDir, const in vec3 viewDir, const in vec3 normal, const in PhysicalMaterial material) {
		vec3 f0 = material.clearcoatF0;
		float f90 = material.clearcoatF90;
		float roughness = max( material.clearcoatRoughness, 0.045 );
		float alpha = pow2( roughness );
		vec3 halfDir = normalize( lightDir + viewDir );
		float dotNL = saturate( dot( normal, lightDir ) );
		float dotNV = saturate( dot( normal, viewDir ) );
		float dotNH = saturate( dot( normal, halfDir ) );
		float dotVH = saturate( dot( viewDir, halfDir ) );
		vec3 F = F_Schlick( f0, f90, dotVH );
		float V = V_GGX_SmithCorrelated( alpha, dotNL, dotNV );
		float D = D_GGX( alpha, dotNH );
		return F * ( V * D );
	}
#endif
vec3 BRDF_GGX( const in vec3 lightDir, const in vec3 viewDir, const in vec3 normal, const in PhysicalMaterial material ) {
	vec3 f0 = material.specularColorBlended;
	float f90 = material.specularF90;
	float roughness = max( material.roughness, 0.045 );
	float alpha = pow2( roughness );
	vec3 halfDir = normalize( lightDir + viewDir );
	float dotNL = saturate( dot( normal, lightDir ) );
	float dotNV = saturate( dot( normal, viewDir ) );
	float dotNH = saturate( dot( normal, halfDir ) );
	float dotVH = saturate( dot( viewDir, halfDir ) );
	vec3 F = F_Schlick( f0, f90, dotVH );
	#ifdef USE_IRIDESCENCE
		F = mix( F, material.iridescenceFresnel, material.iridescence );
	#endif
	#ifdef USE_ANISOTROPY
		float dotTL = dot( material.anisotropyT, lightDir );
		float dotTV = dot( material.anisotropyT, viewDir );
		float dotTH = dot( material.anisotropyT, halfDir );
		float dotBL = dot( material.anisotropyB, lightDir );
		float dotBV = dot( material.anisotropyB, viewDir );
		float dotBH = dot( material.anisotropyB, halfDir );
		float alphaT = max( material.alphaT, alpha );
		float V = V_GGX_SmithCorrelated_Anisotropic( alphaT, alpha, dotTV, dotBV, dotTL, dotBL, dotNV, dotNL );
		float D = D_GGX_Anisotropic( alphaT, alpha, dotNH, dotTH, dotBH );
	#else
		float V = V_GGX_SmithCorrelated( alpha, dotNL, dotNV );
		float D = D_GGX( alpha, dotNH );
	#endif
	return F * ( V * D );
}
vec2 LTC_Uv( const in vec3 N, const in vec3 V, const in float roughness ) {
	const float LUT_SIZE = 64.0;
	const float LUT_SCALE = ( LUT_SIZE - 1.0 ) / LUT_SIZE;
	const float LUT_BIAS = 0.5 / LUT_SIZE;
	float dotNV = saturate( dot( N, V ) );
	vec2 uv = vec2( roughness, sqrt( 1.0 - dotNV ) );
	uv = uv * LUT_SCALE + LUT_BIAS;
	return uv;
}
float LTC_ClippedSphereFormFactor( const in vec3 f ) {
	float l = length( f );
	return max( ( l * l + f.z ) / ( l + 1.0 ), 0.0 );
}
vec3 LTC_EdgeVectorFormFactor( const in vec3 v1, const in vec3 v2 ) {
	float x = dot( v1, v2 );
	float y = abs( x );
	float a = 0.8543985 + ( 0.4965155 + 0.0145206 * y ) * y;
	float b = 3.4175940 + ( 4.1616724 + y ) * y;
	float v = a / b;
	float theta_sintheta = ( x > 0.0 ) ? v : 0.5 * inversesqrt( max( 1.0 - x * x, 1e-7 ) ) - v;
	return cross( v1, v2 ) * theta_sintheta;
}
vec3 LTC_Evaluate( const in vec3 N, const in vec3 V, const in vec3 P, const in mat3 mInv, const in vec3 rectCoords[ 4 ] ) {
	vec3 v1 = rectCoords[ 1 ] - rectCoords[ 0 ];
	vec3 v2 = rectCoords[ 3 ] - rectCoords[ 0 ];
	vec3 lightNormal = cross( v1, v2 );
	if( dot( lightNormal, P - rectCoords[ 0 ] ) < 0.0 ) return vec3( 0.0 );
	vec3 T1, T2;
	T1 = normalize( V - N * dot( V, N ) );
	T2 = - cross( N, T1 );
	mat3 mat = mInv * transpose( mat3( T1, T2, N ) );
	vec3 coords[ 4 ];
	coords[ 0 ] = mat * ( rectCoords[ 0 ] - P );
	coords[ 1 ] = mat * ( rectCoords[ 1 ] - P );
	coords[ 2 ] = mat * ( rectCoords[ 2 ] - P );
	coords[ 3 ] = mat * ( rectCoords[ 3 ] - P );
	coords[ 0 ] = normalize( coords[ 0 ] );
	coords[ 1 ] = normalize( coords[ 1 ] );
	coords[ 2 ] = normalize( coords[ 2 ] );
	coords[ 3 ] = normalize( coords[ 3 ] );
	vec3 vectorFormFactor = vec3( 0.0 );
	vectorFormFactor += LTC_EdgeVectorFormFactor( coords[ 0 ], coords[ 1 ] );
	vectorFormFactor += LTC_EdgeVectorFormFactor( coords[ 1 ], coords[ 2 ] );
	vectorFormFactor += LTC_EdgeVectorFormFactor( coords[ 2 ], coords[ 3 ] );
	vectorFormFactor += LTC_EdgeVectorFormFactor( coords[ 3 ], coords[ 0 ] );
	float result = LTC_ClippedSphereFormFactor( vectorFormFactor );
	return vec3( result );
}
#if defined( USE_SHEEN )
float D_Charlie( float roughness, float dotNH ) {
	float alpha = pow2( roughness );
	float invAlpha = 1.0 / alpha;
	float cos2h = dotNH * dotNH;
	float sin2h = max( 1.0 - cos2h, 0.0078125 );
	return ( 2.0 + invAlpha ) * pow( sin2h, invAlpha * 0.5 ) / ( 2.0 * PI );
}
float V_Neubelt( float dotNV, float dotNL ) {
	return saturate( 1.0 / ( 4.0 * ( dotNL + dotNV - dotNL * dotNV ) ) );
}
vec3 BRDF_Sheen( const in vec3 lightDir, const in vec3 viewDir, const in vec3 normal, vec3 sheenColor, const in float sheenRoughness ) {
	vec3 halfDir = normalize( lightDir + viewDir );
	float dotNL = saturate( dot( normal, lightDir ) );
	float dotNV = saturate( dot( normal, viewDir ) );
	float dotNH = saturate( dot( normal, halfDir ) );
	float D = D_Charlie( sheenRoughness, dotNH );
	float V = V_Neubelt( dotNV, dotNL );
	return sheenColor * ( D * V );
}
#endif
float IBLSheenBRDF( const in vec3 normal, const in vec3 viewDir, const in float roughness ) {
	float dotNV = saturate( dot( normal, viewDir ) );
	float r2 = roughness * roughness;
	float rInv = 1.0 / ( roughness + 0.1 );
	float a = -1.9362 + 1.0678 * roughness + 0.4573 * r2 - 0.8469 * rInv;
	float b = -0.6014 + 0.5538 * roughness - 0.4670 * r2 - 0.1255 * rInv;
	float DG = exp( a * dotNV + b );
	return saturate( DG );
}
vec3 EnvironmentBRDF( const in vec3 normal, const in vec3 viewDir, const in vec3 specularColor, const in float specularF90, const in float roughness ) {
	float dotNV = saturate( dot( normal, viewDir ) );
	vec2 fab = texture2D( dfgLUT, vec2( roughness, dotNV ) ).rg;
	return specularColor * fab.x + specularF90 * fab.y;
}
#ifdef USE_IRIDESCENCE
void computeMultiscatteringIridescence( const in vec2 fab, const in vec3 specularColor, const in float specularF90, const in float iridescence, const in vec3 iridescenceF0, inout vec3 singleScatter, inout vec3 multiScatter ) {
#else
void computeMultiscattering( const in vec2 fab, const in vec3 specularColor, const in float specularF90, inout vec3 singleScatter, inout vec3 multiScatter ) {
#endif
	#ifdef USE_IRIDESCENCE
		vec3 Fr = mix( specularColor, iridescenceF0, iridescence );
	#else
		vec3 Fr = specularColor;
	#endif
	vec3 FssEss = Fr * fab.x + specularF90 * fab.y;
	float Ess = fab.x + fab.y;
	float Ems = 1.0 - Ess;
	vec3 Favg = Fr + ( 1.0 - Fr ) * 0.047619;	vec3 Fms = FssEss * Favg / ( 1.0 - Ems * Favg );
	singleScatter += FssEss;
	multiScatter += Fms * Ems;
}
#if NUM_RECT_AREA_LIGHTS > 0
	void RE_Direct_RectArea_Physical( const in RectAreaLight rectAreaLight, const in vec3 geometryPosition, const in vec3 geometryNormal, const in vec3 geometryViewDir, const in vec3 geometryClearcoatNormal, const in PhysicalMaterial material, inout ReflectedLight reflectedLight ) {
		vec3 normal = geometryNormal;
		vec3 viewDir = geometryViewDir;
		vec3 position = geometryPosition;
		vec3 lightPos = rectAreaLight.position;
		vec3 halfWidth = rectAreaLight.halfWidth;
		vec3 halfHeight = rectAreaLight.halfHeight;
		vec3 lightColor = rectAreaLight.color;
		float roughness = material.roughness;
		vec3 rectCoords[ 4 ];
		rectCoords[ 0 ] = lightPos + halfWidth - halfHeight;		rectCoords[ 1 ] = lightPos - halfWidth - halfHeight;
		rectCoords[ 2 ] = lightPos - halfWidth + halfHeight;
		rectCoords[ 3 ] = lightPos + halfWidth + halfHeight;
		vec2 uv = LTC_Uv( normal, viewDir, roughness );
		vec4 t1 = texture2D( ltc_1, uv );
		vec4 t2 = texture2D( ltc_2, uv );
		mat3 mInv = mat3(
			vec3( t1.x, 0, t1.y ),
			vec3(    0, 1,    0 ),
			vec3( t1.z, 0, t1.w )
		);
		vec3 fresnel = ( material.specularColorBlended * t2.x + ( material.specularF90 - material.specularColorBlended ) * t2.y );
		reflectedLight.directSpecular += lightColor * fresnel * LTC_Evaluate( normal, viewDir, position, mInv, rectCoords );
		reflectedLight.directDiffuse += lightColor * material.diffuseContribution * LTC_Evaluate( normal, viewDir, position, mat3( 1.0 ), rectCoords );
		#ifdef USE_CLEARCOAT
			vec3 Ncc = geometryClearcoatNormal;
			vec2 uvClearcoat = LTC_Uv( Ncc, viewDir, material.clearcoatRoughness );
			vec4 t1Clearcoat = texture2D( ltc_1, uvClearcoat );
			vec4 t2Clearcoat = texture2D( ltc_2, uvClearcoat );
			mat3 mInvClearcoat = mat3(
				vec3( t1Clearcoat.x, 0, t1Clearcoat.y ),
				vec3(             0, 1,             0 ),
				vec3( t1Clearcoat.z, 0, t1Clearcoat.w )
			);
			vec3 fresnelClearcoat = material.clearcoatF0 * t2Clearcoat.x + ( material.clearcoatF90 - material.clearcoatF0 ) * t2Clearcoat.y;
			clearcoatSpecularDirect += lightColor * fresnelClearcoat * LTC_Evaluate( Ncc, viewDir, position, mInvClearcoat, rectCoords );
		#endif
	}
#endif
void RE_Direct_Physical( const in IncidentLight directLight, const in vec3 geometryPosition, const in vec3 geometryNormal, const in vec3 geometryViewDir, const in vec3 geometryClearcoatNormal, const in PhysicalMaterial material, inout ReflectedLight reflectedLight ) {
	float dotNL = saturate( dot( geometryNormal, directLight.direction ) );
	vec3 irradiance = dotNL * directLight.color;
	#ifdef USE_CLEARCOAT
		float dotNLcc = saturate( dot( geometryClearcoatNormal, directLight.direction ) );
		vec3 ccIrradiance = dotNLcc * directLight.color;
		clearcoatSpecularDirect += ccIrradiance * BRDF_GGX_Clearcoat( directLight.direction, geometryViewDir, geometryClearcoatNormal, material );
	#endif
	#ifdef USE_SHEEN
 
 		sheenSpecularDirect += irradiance * BRDF_Sheen( directLight.direction, geometryViewDir, geometryNormal, material.sheenColor, material.sheenRoughness );
 
 		float sheenAlbedoV = IBLSheenBRDF( geometryNormal, geometryViewDir, material.sheenRoughness );
 		float sheenAlbedoL = IBLSheenBRDF( geometryNormal, directLight.direction, material.sheenRoughness );
 
 		float sheenEnergyComp = 1.0 - max3( material.sheenColor ) * max( sheenAlbedoV, sheenAlbedoL );
 
 		irradiance *= sheenEnergyComp;
 
 	#endif
	vec3 specularBRDF = BRDF_GGX( directLight.direction, geometryViewDir, geometryNormal, material );
	#ifdef USE_RETROREFLECTION
		vec3 retroViewDir = reflect( - geometryViewDir, geometryNormal );
		vec3 retroSpecularBRDF = BRDF_GGX( directLight.direction, retroViewDir, geometryNormal, material );
		specularBRDF = mix( specularBRDF, retroSpecularBRDF, saturate( material.retroreflectivity ) );
	#endif
	reflectedLight.directSpecular += irradiance * specularBRDF * material.multiScatteringCompensation;
	vec3 halfDir = normalize( directLight.direction + geometryViewDir );
	float dotVH = saturate( dot( geometryViewDir, halfDir ) );
	vec3 F = F_Schlick( material.specularColor, material.specularF90, dotVH );
	#ifdef USE_RETROREFLECTION
		vec3 retroHalfDir = normalize( directLight.direction + retroViewDir );
		float dotRetroVH = saturate( dot( retroViewDir, retroHalfDir ) );
		vec3 retroF = F_Schlick( material.specularColor, material.specularF90, dotRetroVH );
		F = mix( F, retroF, saturate( material.retroreflectivity ) );
	#endif
	#ifdef USE_DIFFUSE_ROUGHNESS
		vec3 diffuseBRDF = BRDF_EON( directLight.direction, geometryViewDir, geometryNormal, material.diffuseColor, material.diffuseRoughness ) * ( 1.0 - material.metalness );
	#else
		vec3 diffuseBRDF = BRDF_Lambert( material.diffuseContribution );
	#endif
	reflectedLight.directDiffuse += irradiance * diffuseBRDF * ( 1.0 - F );
}
void RE_IndirectDiffuse_Physical( const in vec3 irradiance, const in vec3 geometryPosition, const in vec3 geometryNormal, const in vec3 geometryViewDir, const in vec3 geometryClearcoatNormal, const in PhysicalMaterial material, inout ReflectedLight reflectedLight ) {
	vec3 singleScattering = vec3( 0.0 );
	vec3 multiScattering = vec3( 0.0 );
	#ifdef USE_IRIDESCENCE
		computeMultiscatteringIridescence( material.dfg, material.specularColor, material.specularF90, material.iridescence, material.iridescenceF0Dielectric, singleScattering, multiScattering );
	#else
		computeMultiscattering( material.dfg, material.specularColor, material.specularF90, singleScattering, multiScattering );
	#endif
	#ifdef USE_DIFFUSE_ROUGHNESS
		float dotNV = saturate( dot( geometryNormal, geometryViewDir ) );
		vec3 diffuseAlbedo = EON_DirectionalAlbedo( material.diffuseColor, material.diffuseRoughness, dotNV ) * ( 1.0 - material.metalness );
		vec3 diffuse = irradiance * RECIPROCAL_PI * diffuseAlbedo * ( 1.0 - singleScattering - multiScattering );
	#else
		vec3 diffuse = irradiance * BRDF_Lambert( material.diffuseContribution ) * ( 1.0 - singleScattering - multiScattering );
	#endif
	#ifdef USE_SHEEN
		float sheenAlbedo = IBLSheenBRDF( geometryNormal, geometryViewDir, material.sheenRoughness );
		sheenSpecularIndirect += irradiance * material.sheenColor * sheenAlbedo * RECIPROCAL_PI;
		float sheenEnergyComp = 1.0 - max3( material.sheenColor ) * sheenAlbedo;
		diffuse *= sheenEnergyComp;
	#endif
	reflectedLight.indirectDiffuse += diffuse;
}
void RE_IndirectSpecular_Physical( const in vec3 radiance, const in vec3 irradiance, const in vec3 clearcoatRadiance, const in vec3 geometryPosition, const in vec3 geometryNormal, const in vec3 geometryViewDir, const in vec3 geometryClearcoatNormal, const in PhysicalMaterial material, inout ReflectedLight reflectedLight) {
	#ifdef USE_CLEARCOAT
		clearcoatSpecularIndirect += clearcoatRadiance * EnvironmentBRDF( geometryClearcoatNormal, geometryViewDir, material.clearcoatF0, material.clearcoatF90, material.clearcoatRoughness );
	#endif
	#ifdef USE_SHEEN
		sheenSpecularIndirect += irradiance * material.sheenColor * IBLSheenBRDF( geometryNormal, geometryViewDir, material.sheenRoughness ) * RECIPROCAL_PI;
 	#endif
	vec3 singleScatteringDielectric = vec3( 0.0 );
	vec3 multiScatteringDielectric = vec3( 0.0 );
	vec3 singleScatteringMetallic = vec3( 0.0 );
	vec3 multiScatteringMetallic = vec3( 0.0 );
	#ifdef USE_IRIDESCENCE
		computeMultiscatteringIridescence( material.dfg, material.specularColor, material.specularF90, material.iridescence, material.iridescenceF0Dielectric, singleScatteringDielectric, multiScatteringDielectric );
		computeMultiscatteringIridescence( material.dfg, material.diffuseColor, material.specularF90, material.iridescence, material.iridescenceF0Metallic, singleScatteringMetallic, multiScatteringMetallic );
	#else
		computeMultiscattering( material.dfg, material.specularColor, material.specularF90, singleScatteringDielectric, multiScatteringDielectric );
		computeMultiscattering( material.dfg, material.diffuseColor, material.specularF90, singleScatteringMetallic, multiScatteringMetallic );
	#endif
	vec3 singleScattering = mix( singleScatteringDielectric, singleScatteringMetallic, material.metalness );
	vec3 multiScattering = mix( multiScatteringDielectric, multiScatteringMetallic, material.metalness );
	vec3 totalScatteringDielectric = singleScatteringDielectric + multiScatteringDielectric;
	#ifdef USE_DIFFUSE_ROUGHNESS
		float dotNV = saturate( dot( geometryNormal, geometryViewDir ) );
		vec3 diffuse = EON_DirectionalAlbedo( material.diffuseColor, material.diffuseRoughness, dotNV ) * ( 1.0 - material.metalness ) * ( 1.0 - totalScatteringDielectric );
	#else
		vec3 diffuse = material.diffuseContribution * ( 1.0 - totalScatteringDielectric );
	#endif
	vec3 cosineWeightedIrradiance = irradiance * RECIPROCAL_PI;
	vec3 indirectSpecular = radiance * singleScattering;
	indirectSpecular += multiScattering * cosineWeightedIrradiance;
	vec3 indirectDiffuse = diffuse * cosineWeightedIrradiance;
	#ifdef USE_SHEEN
		float sheenAlbedo = IBLSheenBRDF( geometryNormal, geometryViewDir, material.sheenRoughness );
		float sheenEnergyComp = 1.0 - max3( material.sheenColor ) * sheenAlbedo;
		indirectSpecular *= sheenEnergyComp;
		indirectDiffuse *= sheenEnergyComp;
	#endif
	reflectedLight.indirectSpecular += indirectSpecular;
	reflectedLight.indirectDiffuse += indirectDiffuse;
}
#define RE_Direct				RE_Direct_Physical
#define RE_Direct_RectArea		RE_Direct_RectArea_Physical
#define RE_IndirectDiffuse		RE_IndirectDiffuse_Physical
#define RE_IndirectSpecular		RE_IndirectSpecular_Physical
float computeSpecularOcclusion( const in float dotNV, const in float ambientOcclusion, const in float roughness ) {
	return saturate( pow( dotNV + ambientOcclusion, exp2( - 16.0 * roughness - 1.0 ) ) - 1.0 + ambientOcclusion );
}`,d_=`
vec3 geometryPosition = - vViewPosition;
vec3 geometryNormal = normal;
vec3 geometryViewDir = ( isOrthographic ) ? vec3( 0, 0, 1 ) : normalize( vViewPosition );
vec3 geometryClearcoatNormal = vec3( 0.0 );
#ifdef USE_CLEARCOAT
	geometryClearcoatNormal = clearcoatNormal;
#endif
#ifdef USE_IRIDESCENCE
	float dotNVi = saturate( dot( normal, geometryViewDir ) );
	if ( material.iridescenceThickness == 0.0 ) {
		material.iridescence = 0.0;
	} else {
		material.iridescence = saturate( material.iridescence );
	}
	if ( material.iridescence > 0.0 ) {
		vec3 iridescenceFresnelDielectric = evalIridescence( 1.0, material.iridescenceIOR, dotNVi, material.iridescenceThickness, material.specularColor );
		vec3 iridescenceFresnelMetallic = evalIridescence( 1.0, material.iridescenceIOR, dotNVi, material.iridescenceThickness, material.diffuseColor );
		material.iridescenceFresnel = mix( iridescenceFresnelDielectric, iridescenceFresnelMetallic, material.metalness );
		material.iridescenceF0Dielectric = Schlick_to_F0( iridescenceFresnelDielectric, 1.0, dotNVi );
		material.iridescenceF0Metallic = Schlick_to_F0( iridescenceFresnelMetallic, 1.0, dotNVi );
	}
#endif
#ifdef STANDARD
	float dotNVms = saturate( dot( geometryNormal, geometryViewDir ) );
	material.dfg = texture2D( dfgLUT, vec2( material.roughness, dotNVms ) ).rg;
	#if ( NUM_SUN_LIGHTS > 0 || NUM_DIR_LIGHTS > 0 || NUM_POINT_LIGHTS > 0 || NUM_SPOT_LIGHTS > 0 )
		float EssMs = material.dfg.x + material.dfg.y;
		material.multiScatteringCompensation = 1.0 + material.specularColorBlended * ( 1.0 / EssMs - 1.0 );
	#endif
#endif
IncidentLight directLight;
#if ( NUM_POINT_LIGHTS > 0 ) && defined( RE_Direct )
	PointLight pointLight;
	#if defined( USE_SHADOWMAP ) && NUM_POINT_LIGHT_SHADOWS > 0
	PointLightShadow pointLightShadow;
	#endif
	#pragma unroll_loop_start
	for ( int i = 0; i < NUM_POINT_LIGHTS; i ++ ) {
		pointLight = pointLights[ i ];
		getPointLightInfo( pointLight, geometryPosition, directLight );
		#if defined( USE_SHADOWMAP ) && ( UNROLLED_LOOP_INDEX < NUM_POINT_LIGHT_SHADOWS ) && ( defined( SHADOWMAP_TYPE_PCF ) || defined( SHADOWMAP_TYPE_BASIC ) )
		pointLightShadow = pointLightShadows[ i ];
		directLight.color *= ( directLight.visible && receiveShadow ) ? getPointShadow( pointShadowMap[ i ], pointLightShadow.shadowMapSize, pointLightShadow.shadowIntensity, pointLightShadow.shadowBias, pointLightShadow.shadowRadius, vPointShadowCoord[ i ], pointLightShadow.shadowCameraNear, pointLightShadow.shadowCameraFar ) : 1.0;
		#endif
		RE_Direct( directLight, geometryPosition, geometryNormal, geometryViewDir, geometryClearcoatNormal, material, reflectedLight );
	}
	#pragma unroll_loop_end
#endif
#if ( NUM_SPOT_LIGHTS > 0 ) && defined( RE_Direct )
	SpotLight spotLight;
	vec4 spotColor;
	vec3 spotLightCoord;
	bool inSpotLightMap;
	#if defined( USE_SHADOWMAP ) && NUM_SPOT_LIGHT_SHADOWS > 0
	SpotLightShadow spotLightShadow;
	#endif
	#pragma unroll_loop_start
	for ( int i = 0; i < NUM_SPOT_LIGHTS; i ++ ) {
		spotLight = spotLights[ i ];
		getSpotLightInfo( spotLight, geometryPosition, directLight );
		#if ( UNROLLED_LOOP_INDEX < NUM_SPOT_LIGHT_SHADOWS_WITH_MAPS )
		#define SPOT_LIGHT_MAP_INDEX UNROLLED_LOOP_INDEX
		#elif ( UNROLLED_LOOP_INDEX < NUM_SPOT_LIGHT_SHADOWS )
		#define SPOT_LIGHT_MAP_INDEX NUM_SPOT_LIGHT_MAPS
		#else
		#define SPOT_LIGHT_MAP_INDEX ( UNROLLED_LOOP_INDEX - NUM_SPOT_LIGHT_SHADOWS + NUM_SPOT_LIGHT_SHADOWS_WITH_MAPS )
		#endif
		#if ( SPOT_LIGHT_MAP_INDEX < NUM_SPOT_LIGHT_MAPS )
			spotLightCoord = vSpotLightCoord[ i ].xyz / vSpotLightCoord[ i ].w;
			inSpotLightMap = all( lessThan( abs( spotLightCoord * 2. - 1. ), vec3( 1.0 ) ) );
			spotColor = texture2D( spotLightMap[ SPOT_LIGHT_MAP_INDEX ], spotLightCoord.xy );
			directLight.color = inSpotLightMap ? directLight.color * spotColor.rgb : directLight.color;
		#endif
		#undef SPOT_LIGHT_MAP_INDEX
		#if defined( USE_SHADOWMAP ) && ( UNROLLED_LOOP_INDEX < NUM_SPOT_LIGHT_SHADOWS )
		spotLightShadow = spotLightShadows[ i ];
		directLight.color *= ( directLight.visible && receiveShadow ) ? getShadow( spotShadowMap[ i ], spotLightShadow.shadowMapSize, spotLightShadow.shadowIntensity, spotLightShadow.shadowBias, spotLightShadow.shadowRadius, vSpotLightCoord[ i ] ) : 1.0;
		#endif
		RE_Direct( directLight, geometryPosition, geometryNormal, geometryViewDir, geometryClearcoatNormal, material, reflectedLight );
	}
	#pragma unroll_loop_end
#endif
#if ( NUM_SUN_LIGHTS > 0 ) && defined( RE_Direct )
	SunLight sunLight;
	#if defined( USE_SHADOWMAP ) && NUM_SUN_LIGHT_SHADOWS > 0
	SunLightShadow sunLightShadow;
	#endif
	#pragma unroll_loop_start
	for ( int i = 0; i < NUM_SUN_LIGHTS; i ++ ) {
		sunLight = sunLights[ i ];
		getSunLightInfo( sunLight, directLight );
		#if defined( USE_SHADOWMAP ) && ( UNROLLED_LOOP_INDEX < NUM_SUN_LIGHT_SHADOWS )
		sunLightShadow = sunLightShadows[ i ];
		directLight.color *= ( directLight.visible && receiveShadow ) ? getSunShadow( sunShadowMap[ i ], sunLightShadow, UNROLLED_LOOP_INDEX ) : 1.0;
		#endif
		RE_Direct( directLight, geometryPosition, geometryNormal, geometryViewDir, geometryClearcoatNormal, material, reflectedLight );
	}
	#pragma unroll_loop_end
#endif
#if ( NUM_DIR_LIGHTS > 0 ) && defined( RE_Direct )
	DirectionalLight directionalLight;
	#if defined( USE_SHADOWMAP ) && NUM_DIR_LIGHT_SHADOWS > 0
	DirectionalLightShadow directionalLightShadow;
	#endif
	#pragma unroll_loop_start
	for ( int i = 0; i < NUM_DIR_LIGHTS; i ++ ) {
		directionalLight = directionalLights[ i ];
		getDirectionalLightInfo( directionalLight, directLight );
		#if defined( USE_SHADOWMAP ) && ( UNROLLED_LOOP_INDEX < NUM_DIR_LIGHT_SHADOWS )
		directionalLightShadow = directionalLightShadows[ i ];
		directLight.color *= ( directLight.visible && receiveShadow ) ? getShadow( directionalShadowMap[ i ], directionalLightShadow.shadowMapSize, directionalLightShadow.shadowIntensity, directionalLightShadow.shadowBias, directionalLightShadow.shadowRadius, vDirectionalShadowCoord[ i ] ) : 1.0;
		#endif
		RE_Direct( directLight, geometryPosition, geometryNormal, geometryViewDir, geometryClearcoatNormal, material, reflectedLight );
	}
	#pragma unroll_loop_end
#endif
#if ( NUM_RECT_AREA_LIGHTS > 0 ) && defined( RE_Direct_RectArea )
	RectAreaLight rectAreaLight;
	#pragma unroll_loop_start
	for ( int i = 0; i < NUM_RECT_AREA_LIGHTS; i ++ ) {
		rectAreaLight = rectAreaLights[ i ];
		RE_Direct_RectArea( rectAreaLight, geometryPosition, geometryNormal, geometryViewDir, geometryClearcoatNormal, material, reflectedLight );
	}
	#pragma unroll_loop_end
#endif
#if defined( RE_IndirectDiffuse )
	vec3 iblIrradiance = vec3( 0.0 );
	vec3 irradiance = getAmbientLightIrradiance( ambientLightColor );
	#if defined( USE_LIGHT_PROBES )
		irradiance += getLightProbeIrradiance( lightProbe, geometryNormal );
	#endif
	#if ( NUM_HEMI_LIGHTS > 0 )
		#pragma unroll_loop_start
		for ( int i = 0; i < NUM_HEMI_LIGHTS; i ++ ) {
			irradiance += getHemisphereLightIrradiance( hemisphereLights[ i ], geometryNormal );
		}
		#pragma unroll_loop_end
	#endif
	#if NUM_LIGHT_PROBE_GRIDS > 0
		vec3 probeWorldPos = ( ( vec4( geometryPosition, 1.0 ) - viewMatrix[ 3 ] ) * viewMatrix ).xyz;
		vec3 probeWorldNormal = transformNormalByInverseViewMatrix( geometryNormal, viewMatrix );
		int probeGrid = - 1;
		#pragma unroll_loop_start
		for ( int i = 0; i < NUM_LIGHT_PROBE_GRIDS; i ++ ) {
			if ( isInsideLightProbeGrid( probeWorldPos, probeWorldNormal, probesMin[ i ], probesMax[ i ], probesResolution[ i ] ) ) probeGrid = UNROLLED_LOOP_INDEX;
		}
		#pragma unroll_loop_end
		#pragma unroll_loop_start
		for ( int i = 0; i < NUM_LIGHT_PROBE_GRIDS; i ++ ) {
			if ( probeGrid == UNROLLED_LOOP_INDEX ) irradiance += getLightProbeGridIrradiance( probesSH[ i ], probesMin[ i ], probesMax[ i ], probesResolution[ i ], probeWorldPos, probeWorldNormal );
		}
		#pragma unroll_loop_end
	#endif
#endif
#if defined( RE_IndirectSpecular )
	vec3 radiance = vec3( 0.0 );
	vec3 clearcoatRadiance = vec3( 0.0 );
#endif`,f_=`#if defined( RE_IndirectDiffuse )
	#ifdef USE_LIGHTMAP
		vec4 lightMapTexel = texture2D( lightMap, vLightMapUv );
		vec3 lightMapIrradiance = lightMapTexel.rgb * lightMapIntensity;
		irradiance += lightMapIrradiance;
	#endif
	#if defined( USE_ENVMAP ) && defined( ENVMAP_TYPE_PMREM )
		#if defined( STANDARD ) || defined( LAMBERT ) || defined( PHONG )
			iblIrradiance += getIBLIrradiance( geometryNormal );
		#endif
	#endif
#endif
#if defined( USE_ENVMAP ) && defined( RE_IndirectSpecular )
	#ifdef USE_ANISOTROPY
		vec3 iblRadiance = getIBLAnisotropyRadiance( geometryViewDir, geometryNormal, material.roughness, material.anisotropyB, material.anisotropy );
	#else
		vec3 iblRadiance = getIBLRadiance( geometryViewDir, geometryNormal, material.roughness );
	#endif
	#ifdef USE_RETROREFLECTION
		#ifdef USE_ANISOTROPY
			vec3 retroIBLRadiance = getIBLAnisotropyRetroRadiance( geometryViewDir, geometryNormal, material.roughness, material.anisotropyB, material.anisotropy );
		#else
			vec3 retroIBLRadiance = getIBLRetroRadiance( geometryViewDir, geometryNormal, material.roughness );
		#endif
		iblRadiance = mix( iblRadiance, retroIBLRadiance, saturate( material.retroreflectivity ) );
	#endif
	radiance += iblRadiance;
	#ifdef USE_CLEARCOAT
		clearcoatRadiance += getIBLRadiance( geometryViewDir, geometryClearcoatNormal, material.clearcoatRoughness );
	#endif
#endif`,p_=`#if defined( RE_IndirectDiffuse )
	#if defined( LAMBERT ) || defined( PHONG )
		irradiance += iblIrradiance;
	#endif
	RE_IndirectDiffuse( irradiance, geometryPosition, geometryNormal, geometryViewDir, geometryClearcoatNormal, material, reflectedLight );
#endif
#if defined( RE_IndirectSpecular )
	RE_IndirectSpecular( radiance, iblIrradiance, clearcoatRadiance, geometryPosition, geometryNormal, geometryViewDir, geometryClearcoatNormal, material, reflectedLight );
#endif`,m_=`#if NUM_LIGHT_PROBE_GRIDS > 0
uniform highp sampler3D probesSH[ NUM_LIGHT_PROBE_GRIDS ];
uniform vec3 probesMin[ NUM_LIGHT_PROBE_GRIDS ];
uniform vec3 probesMax[ NUM_LIGHT_PROBE_GRIDS ];
uniform vec3 probesResolution[ NUM_LIGHT_PROBE_GRIDS ];
bool isInsideLightProbeGrid( vec3 worldPos, vec3 worldNormal, vec3 probesMin, vec3 probesMax, vec3 probesResolution ) {
	vec3 spacing = ( probesMax - probesMin ) / probesResolution;
	vec3 samplePos = worldPos + worldNormal * spacing * 0.5;
	vec3 margin = spacing * 0.01;
	return all( greaterThanEqual( samplePos, probesMin - margin ) ) && all( lessThanEqual( samplePos, probesMax + margin ) );
}
vec3 getLightProbeGridIrradiance( highp sampler3D probesSH, vec3 probesMin, vec3 probesMax, vec3 probesResolution, vec3 worldPos, vec3 worldNormal ) {
	vec3 res = probesResolution;
	vec3 gridRange = probesMax - probesMin;
	vec3 probeSpacing = gridRange / res;
	vec3 samplePos = worldPos + worldNormal * probeSpacing * 0.5;
	vec3 uvw = clamp( ( samplePos - probesMin ) / gridRange, 0.5 / res, 1.0 - 0.5 / res );
	float nz          = res.z;
	float paddedSlices = nz + 2.0;
	float atlasDepth  = 7.0 * paddedSlices;
	float uvZBase     = uvw.z * nz + 1.0;
	vec4 s0 = texture( probesSH, vec3( uvw.xy, ( uvZBase                       ) / atlasDepth ) );
	vec4 s1 = texture( probesSH, vec3( uvw.xy, ( uvZBase +       paddedSlices   ) / atlasDepth ) );
	vec4 s2 = texture( probesSH, vec3( uvw.xy, ( uvZBase + 2.0 * paddedSlices   ) / atlasDepth ) );
	vec4 s3 = texture( probesSH, vec3( uvw.xy, ( uvZBase + 3.0 * paddedSlices   ) / atlasDepth ) );
	vec4 s4 = texture( probesSH, vec3( uvw.xy, ( uvZBase + 4.0 * paddedSlices   ) / atlasDepth ) );
	vec4 s5 = texture( probesSH, vec3( uvw.xy, ( uvZBase + 5.0 * paddedSlices   ) / atlasDepth ) );
	vec4 s6 = texture( probesSH, vec3( uvw.xy, ( uvZBase + 6.0 * paddedSlices   ) / atlasDepth ) );
	vec3 c0 = s0.xyz;
	vec3 c1 = vec3( s0.w, s1.xy );
	vec3 c2 = vec3( s1.zw, s2.x );
	vec3 c3 = s2.yzw;
	vec3 c4 = s3.xyz;
	vec3 c5 = vec3( s3.w, s4.xy );
	vec3 c6 = vec3( s4.zw, s5.x );
	vec3 c7 = s5.yzw;
	vec3 c8 = s6.xyz;
	float x = worldNormal.x, y = worldNormal.y, z = worldNormal.z;
	vec3 result = c0 * 0.886227;
	result += c1 * 2.0 * 0.511664 * y;
	result += c2 * 2.0 * 0.511664 * z;
	result += c3 * 2.0 * 0.511664 * x;
	result += c4 * 2.0 * 0.429043 * x * y;
	result += c5 * 2.0 * 0.429043 * y * z;
	result += c6 * ( 0.743125 * z * z - 0.247708 );
	result += c7 * 2.0 * 0.429043 * x * z;
	result += c8 * 0.429043 * ( x * x - y * y );
	return max( result, vec3( 0.0 ) );
}
#endif`,g_=`#if defined( USE_LOGARITHMIC_DEPTH_BUFFER )
	gl_FragDepth = vIsPerspective == 0.0 ? gl_FragCoord.z : log2( vFragDepth ) * logDepthBufFC * 0.5;
#endif`,__=`#if defined( USE_LOGARITHMIC_DEPTH_BUFFER )
	uniform float logDepthBufFC;
	varying float vFragDepth;
	varying float vIsPerspective;
#endif`,x_=`#ifdef USE_LOGARITHMIC_DEPTH_BUFFER
	varying float vFragDepth;
	varying float vIsPerspective;
#endif`,y_=`#ifdef USE_LOGARITHMIC_DEPTH_BUFFER
	vFragDepth = 1.0 + gl_Position.w;
	vIsPerspective = float( isPerspectiveMatrix( projectionMatrix ) );
#endif`,v_=`#ifdef USE_MAP
	vec4 sampledDiffuseColor = texture2D( map, vMapUv );
	#ifdef DECODE_VIDEO_TEXTURE
		sampledDiffuseColor = sRGBTransferEOTF( sampledDiffuseColor );
	#endif
	diffuseColor *= sampledDiffuseColor;
#endif`,S_=`#ifdef USE_MAP
	uniform sampler2D map;
#endif`,M_=`#if defined( USE_MAP ) || defined( USE_ALPHAMAP )
	#if defined( USE_POINTS_UV )
		vec2 uv = vUv;
	#else
		vec2 uv = ( uvTransform * vec3( gl_PointCoord.x, 1.0 - gl_PointCoord.y, 1 ) ).xy;
	#endif
#endif
#ifdef USE_MAP
	diffuseColor *= texture2D( map, uv );
#endif
#ifdef USE_ALPHAMAP
	diffuseColor.a *= texture2D( alphaMap, uv ).g;
#endif`,b_=`#if defined( USE_POINTS_UV )
	varying vec2 vUv;
#else
	#if defined( USE_MAP ) || defined( USE_ALPHAMAP )
		uniform mat3 uvTransform;
	#endif
#endif
#ifdef USE_MAP
	uniform sampler2D map;
#endif
#ifdef USE_ALPHAMAP
	uniform sampler2D alphaMap;
#endif`,w_=`float metalnessFactor = metalness;
#ifdef USE_METALNESSMAP
	vec4 texelMetalness = texture2D( metalnessMap, vMetalnessMapUv );
	metalnessFactor *= texelMetalness.b;
#endif`,E_=`#ifdef USE_METALNESSMAP
	uniform sampler2D metalnessMap;
#endif`,T_=`#ifdef USE_INSTANCING_MORPH
	float morphTargetInfluences[ MORPHTARGETS_COUNT ];
	float morphTargetBaseInfluence = texelFetch( morphTexture, ivec2( 0, gl_InstanceID ), 0 ).r;
	for ( int i = 0; i < MORPHTARGETS_COUNT; i ++ ) {
		morphTargetInfluences[i] =  texelFetch( morphTexture, ivec2( i + 1, gl_InstanceID ), 0 ).r;
	}
#endif`,A_=`#if defined( USE_MORPHCOLORS )
	#if defined( USE_COLOR_ALPHA )
		vColor *= morphTargetBaseInfluence;
	#elif defined( USE_COLOR )
		vColor.rgb *= morphTargetBaseInfluence;
	#endif
	for ( int i = 0; i < MORPHTARGETS_COUNT; i ++ ) {
		#if defined( USE_COLOR_ALPHA )
			if ( morphTargetInfluences[ i ] != 0.0 ) vColor += getMorph( gl_VertexID, i, 2 ) * morphTargetInfluences[ i ];
		#elif defined( USE_COLOR )
			if ( morphTargetInfluences[ i ] != 0.0 ) vColor.rgb += getMorph( gl_VertexID, i, 2 ).rgb * morphTargetInfluences[ i ];
		#endif
	}
#endif`,R_=`#ifdef USE_MORPHNORMALS
	objectNormal *= morphTargetBaseInfluence;
	for ( int i = 0; i < MORPHTARGETS_COUNT; i ++ ) {
		if ( morphTargetInfluences[ i ] != 0.0 ) objectNormal += getMorph( gl_VertexID, i, 1 ).xyz * morphTargetInfluences[ i ];
	}
#endif`,C_=`#ifdef USE_MORPHTARGETS
	#ifndef USE_INSTANCING_MORPH
		uniform float morphTargetBaseInfluence;
		uniform float morphTargetInfluences[ MORPHTARGETS_COUNT ];
	#endif
	uniform sampler2DArray morphTargetsTexture;
	uniform ivec2 morphTargetsTextureSize;
	vec4 getMorph( const in int vertexIndex, const in int morphTargetIndex, const in int offset ) {
		int texelIndex = vertexIndex * MORPHTARGETS_TEXTURE_STRIDE + offset;
		int y = texelIndex / morphTargetsTextureSize.x;
		int x = texelIndex - y * morphTargetsTextureSize.x;
		ivec3 morphUV = ivec3( x, y, morphTargetIndex );
		return texelFetch( morphTargetsTexture, morphUV, 0 );
	}
#endif`,P_=`#ifdef USE_MORPHTARGETS
	transformed *= morphTargetBaseInfluence;
	for ( int i = 0; i < MORPHTARGETS_COUNT; i ++ ) {
		if ( morphTargetInfluences[ i ] != 0.0 ) transformed += getMorph( gl_VertexID, i, 0 ).xyz * morphTargetInfluences[ i ];
	}
#endif`,I_=`float faceDirection = gl_FrontFacing ? 1.0 : - 1.0;
#ifdef FLAT_SHADED
	vec3 fdx = dFdx( vViewPosition );
	vec3 fdy = dFdy( vViewPosition );
	vec3 normal = normalize( cross( fdx, fdy ) );
#else
	vec3 normal = normalize( vNormal );
	#ifdef DOUBLE_SIDED
		normal *= faceDirection;
	#endif
#endif
#if defined( USE_NORMALMAP_TANGENTSPACE ) || defined( USE_CLEARCOAT_NORMALMAP ) || defined( USE_ANISOTROPY )
	#ifdef USE_TANGENT
		mat3 tbn = mat3( normalize( vTangent ), normalize( vBitangent ), normal );
	#else
		mat3 tbn = getTangentFrame( - vViewPosition, normal,
		#if defined( USE_NORMALMAP )
			vNormalMapUv
		#elif defined( USE_CLEARCOAT_NORMALMAP )
			vClearcoatNormalMapUv
		#else
			vUv
		#endif
		);
	#endif
	#ifdef DOUBLE_SIDED
		tbn[0] *= faceDirection;
		tbn[1] *= faceDirection;
	#endif
#endif
#ifdef USE_CLEARCOAT_NORMALMAP
	#ifdef USE_TANGENT
		mat3 tbn2 = mat3( normalize( vTangent ), normalize( vBitangent ), normal );
	#else
		mat3 tbn2 = getTangentFrame( - vViewPosition, normal, vClearcoatNormalMapUv );
	#endif
	#ifdef DOUBLE_SIDED
		tbn2[0] *= faceDirection;
		tbn2[1] *= faceDirection;
	#endif
#endif
vec3 nonPerturbedNormal = normal;`,L_=`#ifdef USE_NORMALMAP_OBJECTSPACE
	normal = texture2D( normalMap, vNormalMapUv ).xyz * 2.0 - 1.0;
	#ifdef FLIP_SIDED
		normal = - normal;
	#endif
	#ifdef DOUBLE_SIDED
		normal = normal * faceDirection;
	#endif
	normal = normalize( normalMatrix * normal );
#elif defined( USE_NORMALMAP_TANGENTSPACE )
	vec3 mapN = texture2D( normalMap, vNormalMapUv ).xyz * 2.0 - 1.0;
	#if defined( USE_PACKED_NORMALMAP )
		mapN = vec3( mapN.xy, sqrt( saturate( 1.0 - dot( mapN.xy, mapN.xy ) ) ) );
	#endif
	mapN.xy *= normalScale;
	normal = normalize( tbn * mapN );
#elif defined( USE_BUMPMAP )
	normal = perturbNormalArb( - vViewPosition, normal, dHdxy_fwd(), faceDirection );
#endif`,D_=`#ifndef FLAT_SHADED
	varying vec3 vNormal;
	#ifdef USE_TANGENT
		varying vec3 vTangent;
		varying vec3 vBitangent;
	#endif
#endif`,N_=`#ifndef FLAT_SHADED
	varying vec3 vNormal;
	#ifdef USE_TANGENT
		varying vec3 vTangent;
		varying vec3 vBitangent;
	#endif
#endif`,U_=`#ifndef FLAT_SHADED
	vNormal = normalize( transformedNormal );
	#ifdef USE_TANGENT
		vTangent = normalize( transformedTangent );
		vBitangent = normalize( cross( vNormal, vTangent ) * tangent.w );
		#ifdef FLIP_SIDED
			vBitangent = - vBitangent;
		#endif
	#endif
#endif`,F_=`#ifdef USE_NORMALMAP
	uniform sampler2D normalMap;
	uniform vec2 normalScale;
#endif
#ifdef USE_NORMALMAP_OBJECTSPACE
	uniform mat3 normalMatrix;
#endif
#if ! defined ( USE_TANGENT ) && ( defined ( USE_NORMALMAP_TANGENTSPACE ) || defined ( USE_CLEARCOAT_NORMALMAP ) || defined( USE_ANISOTROPY ) )
	mat3 getTangentFrame( vec3 eye_pos, vec3 surf_norm, vec2 uv ) {
		vec3 q0 = dFdx( eye_pos.xyz );
		vec3 q1 = dFdy( eye_pos.xyz );
		vec2 st0 = dFdx( uv.st );
		vec2 st1 = dFdy( uv.st );
		vec3 N = surf_norm;
		vec3 q1perp = cross( q1, N );
		vec3 q0perp = cross( N, q0 );
		vec3 T = q1perp * st0.x + q0perp * st1.x;
		vec3 B = q1perp * st0.y + q0perp * st1.y;
		float det = max( dot( T, T ), dot( B, B ) );
		float scale = ( det == 0.0 ) ? 0.0 : inversesqrt( det );
		return mat3( T * scale, B * scale, N );
	}
#endif`,O_=`#ifdef USE_CLEARCOAT
	vec3 clearcoatNormal = nonPerturbedNormal;
#endif`,B_=`#ifdef USE_CLEARCOAT_NORMALMAP
	vec3 clearcoatMapN = texture2D( clearcoatNormalMap, vClearcoatNormalMapUv ).xyz * 2.0 - 1.0;
	clearcoatMapN.xy *= clearcoatNormalScale;
	clearcoatNormal = normalize( tbn2 * clearcoatMapN );
#endif`,k_=`#ifdef USE_CLEARCOATMAP
	uniform sampler2D clearcoatMap;
#endif
#ifdef USE_CLEARCOAT_NORMALMAP
	uniform sampler2D clearcoatNormalMap;
	uniform vec2 clearcoatNormalScale;
#endif
#ifdef USE_CLEARCOAT_ROUGHNESSMAP
	uniform sampler2D clearcoatRoughnessMap;
#endif`,z_=`#ifdef USE_IRIDESCENCEMAP
	uniform sampler2D iridescenceMap;
#endif
#ifdef USE_IRIDESCENCE_THICKNESSMAP
	uniform sampler2D iridescenceThicknessMap;
#endif`,V_=`#ifdef OPAQUE
diffuseColor.a = 1.0;
#endif
#ifdef USE_TRANSMISSION
diffuseColor.a *= material.transmissionAlpha;
#endif
gl_FragColor = vec4( outgoingLight, diffuseColor.a );`,G_=`vec3 packNormalToRGB( const in vec3 normal ) {
	return normalize( normal ) * 0.5 + 0.5;
}
vec3 unpackRGBToNormal( const in vec3 rgb ) {
	return 2.0 * rgb.xyz - 1.0;
}
const float PackUpscale = 256. / 255.;const float UnpackDownscale = 255. / 256.;const float ShiftRight8 = 1. / 256.;
const float Inv255 = 1. / 255.;
const vec4 PackFactors = vec4( 1.0, 256.0, 256.0 * 256.0, 256.0 * 256.0 * 256.0 );
const vec2 UnpackFactors2 = vec2( UnpackDownscale, 1.0 / PackFactors.g );
const vec3 UnpackFactors3 = vec3( UnpackDownscale / PackFactors.rg, 1.0 / PackFactors.b );
const vec4 UnpackFactors4 = vec4( UnpackDownscale / PackFactors.rgb, 1.0 / PackFactors.a );
vec4 packDepthToRGBA( const in float v ) {
	if( v <= 0.0 )
		return vec4( 0., 0., 0., 0. );
	if( v >= 1.0 )
		return vec4( 1., 1., 1., 1. );
	float vuf;
	float af = modf( v * PackFactors.a, vuf );
	float bf = modf( vuf * ShiftRight8, vuf );
	float gf = modf( vuf * ShiftRight8, vuf );
	return vec4( vuf * Inv255, gf * PackUpscale, bf * PackUpscale, af );
}
vec3 packDepthToRGB( const in float v ) {
	if( v <= 0.0 )
		return vec3( 0., 0., 0. );
	if( v >= 1.0 )
		return vec3( 1., 1., 1. );
	float vuf;
	float bf = modf( v * PackFactors.b, vuf );
	float gf = modf( vuf * ShiftRight8, vuf );
	return vec3( vuf * Inv255, gf * PackUpscale, bf );
}
vec2 packDepthToRG( const in float v ) {
	if( v <= 0.0 )
		return vec2( 0., 0. );
	if( v >= 1.0 )
		return vec2( 1., 1. );
	float vuf;
	float gf = modf( v * 256., vuf );
	return vec2( vuf * Inv255, gf );
}
float unpackRGBAToDepth( const in vec4 v ) {
	return dot( v, UnpackFactors4 );
}
float unpackRGBToDepth( const in vec3 v ) {
	return dot( v, UnpackFactors3 );
}
float unpackRGToDepth( const in vec2 v ) {
	return v.r * UnpackFactors2.r + v.g * UnpackFactors2.g;
}
vec4 pack2HalfToRGBA( const in vec2 v ) {
	vec4 r = vec4( v.x, fract( v.x * 255.0 ), v.y, fract( v.y * 255.0 ) );
	return vec4( r.x - r.y / 255.0, r.y, r.z - r.w / 255.0, r.w );
}
vec2 unpackRGBATo2Half( const in vec4 v ) {
	return vec2( v.x + ( v.y / 255.0 ), v.z + ( v.w / 255.0 ) );
}
float viewZToOrthographicDepth( const in float viewZ, const in float near, const in float far ) {
	return ( viewZ + near ) / ( near - far );
}
float orthographicDepthToViewZ( const in float depth, const in float near, const in float far ) {
	#ifdef USE_REVERSED_DEPTH_BUFFER
	
		return depth * ( far - near ) - far;
	#else
		return depth * ( near - far ) - near;
	#endif
}
float viewZToPerspectiveDepth( const in float viewZ, const in float near, const in float far ) {
	return ( ( near + viewZ ) * far ) / ( ( far - near ) * viewZ );
}
float perspectiveDepthToViewZ( const in float depth, const in float near, const in float far ) {
	
	#ifdef USE_REVERSED_DEPTH_BUFFER
		return ( near * far ) / ( ( near - far ) * depth - near );
	#else
		return ( near * far ) / ( ( far - near ) * depth - far );
	#endif
}`,H_=`#ifdef PREMULTIPLIED_ALPHA
	gl_FragColor.rgb *= gl_FragColor.a;
#endif`,W_=`vec4 mvPosition = vec4( transformed, 1.0 );
#ifdef USE_BATCHING
	mvPosition = batchingMatrix * mvPosition;
#endif
#ifdef USE_INSTANCING
	mvPosition = instanceMatrix * mvPosition;
#endif
mvPosition = modelViewMatrix * mvPosition;
gl_Position = projectionMatrix * mvPosition;`,X_=`#ifdef DITHERING
	gl_FragColor.rgb = dithering( gl_FragColor.rgb );
#endif`,q_=`#ifdef DITHERING
	vec3 dithering( vec3 color ) {
		float grid_position = rand( gl_FragCoord.xy );
		vec3 dither_shift_RGB = vec3( 0.25 / 255.0, -0.25 / 255.0, 0.25 / 255.0 );
		dither_shift_RGB = mix( 2.0 * dither_shift_RGB, -2.0 * dither_shift_RGB, grid_position );
		return color + dither_shift_RGB;
	}
#endif`,$_=`float roughnessFactor = roughness;
#ifdef USE_ROUGHNESSMAP
	vec4 texelRoughness = texture2D( roughnessMap, vRoughnessMapUv );
	roughnessFactor *= texelRoughness.g;
#endif`,Y_=`#ifdef USE_ROUGHNESSMAP
	uniform sampler2D roughnessMap;
#endif`,Z_=`#if NUM_SPOT_LIGHT_COORDS > 0
	varying vec4 vSpotLightCoord[ NUM_SPOT_LIGHT_COORDS ];
#endif
#if NUM_SPOT_LIGHT_MAPS > 0
	uniform sampler2D spotLightMap[ NUM_SPOT_LIGHT_MAPS ];
#endif
#ifdef USE_SHADOWMAP
	#if NUM_SUN_LIGHT_SHADOWS > 0
		#define SUN_LIGHT_CASCADES 2
		#if defined( SHADOWMAP_TYPE_PCF )
			uniform sampler2DShadow sunShadowMap[ NUM_SUN_LIGHT_SHADOWS ];
		#else
			uniform sampler2D sunShadowMap[ NUM_SUN_LIGHT_SHADOWS ];
		#endif
		uniform mat4 sunShadowMatrix[ NUM_SUN_LIGHT_SHADOWS * SUN_LIGHT_CASCADES ];
		uniform vec4 sunShadowCascade[ NUM_SUN_LIGHT_SHADOWS * SUN_LIGHT_CASCADES ];
		varying vec4 vSunShadowWorldPosition;
		varying vec3 vSunShadowWorldNormal;
		struct SunLightShadow {
			float shadowIntensity;
			float shadowBias;
			float shadowNormalBias;
			float shadowRadius;
			vec2 shadowMapSize;
		};
		uniform SunLightShadow sunLightShadows[ NUM_SUN_LIGHT_SHADOWS ];
	#endif
	#if NUM_DIR_LIGHT_SHADOWS > 0
		#if defined( SHADOWMAP_TYPE_PCF )
			uniform sampler2DShadow directionalShadowMap[ NUM_DIR_LIGHT_SHADOWS ];
		#else
			uniform sampler2D directionalShadowMap[ NUM_DIR_LIGHT_SHADOWS ];
		#endif
		varying vec4 vDirectionalShadowCoord[ NUM_DIR_LIGHT_SHADOWS ];
		struct DirectionalLightShadow {
			float shadowIntensity;
			float shadowBias;
			float shadowNormalBias;
			float shadowRadius;
			vec2 shadowMapSize;
		};
		uniform DirectionalLightShadow directionalLightShadows[ NUM_DIR_LIGHT_SHADOWS ];
	#endif
	#if NUM_SPOT_LIGHT_SHADOWS > 0
		#if defined( SHADOWMAP_TYPE_PCF )
			uniform sampler2DShadow spotShadowMap[ NUM_SPOT_LIGHT_SHADOWS ];
		#else
			uniform sampler2D spotShadowMap[ NUM_SPOT_LIGHT_SHADOWS ];
		#endif
		struct SpotLightShadow {
			float shadowIntensity;
			float shadowBias;
			float shadowNormalBias;
			float shadowRadius;
			vec2 shadowMapSize;
		};
		uniform SpotLightShadow spotLightShadows[ NUM_SPOT_LIGHT_SHADOWS ];
	#endif
	#if NUM_POINT_LIGHT_SHADOWS > 0
		#if defined( SHADOWMAP_TYPE_PCF )
			uniform samplerCubeShadow pointShadowMap[ NUM_POINT_LIGHT_SHADOWS ];
		#elif defined( SHADOWMAP_TYPE_BASIC )
			uniform samplerCube pointShadowMap[ NUM_POINT_LIGHT_SHADOWS ];
		#endif
		varying vec4 vPointShadowCoord[ NUM_POINT_LIGHT_SHADOWS ];
		struct PointLightShadow {
			float shadowIntensity;
			float shadowBias;
			float shadowNormalBias;
			float shadowRadius;
			vec2 shadowMapSize;
			float shadowCameraNear;
			float shadowCameraFar;
		};
		uniform PointLightShadow pointLightShadows[ NUM_POINT_LIGHT_SHADOWS ];
	#endif
	#if defined( SHADOWMAP_TYPE_PCF )
		float interleavedGradientNoise( vec2 position ) {
			return fract( 52.9829189 * fract( dot( position, vec2( 0.06711056, 0.00583715 ) ) ) );
		}
		vec2 vogelDiskSample( int sampleIndex, int samplesCount, float phi ) {
			const float goldenAngle = 2.399963229728653;
			float r = sqrt( ( float( sampleIndex ) + 0.5 ) / float( samplesCount ) );
			float theta = float( sampleIndex ) * goldenAngle + phi;
			return vec2( cos( theta ), sin( theta ) ) * r;
		}
	#endif
	#if defined( SHADOWMAP_TYPE_PCF )
		float getShadow( sampler2DShadow shadowMap, vec2 shadowMapSize, float shadowIntensity, float shadowBias, float shadowRadius, vec4 shadowCoord ) {
			float shadow = 1.0;
			shadowCoord.xyz /= shadowCoord.w;
			#ifdef USE_REVERSED_DEPTH_BUFFER
				shadowCoord.z -= shadowBias;
			#else
				shadowCoord.z += shadowBias;
			#endif
			bool inFrustum = shadowCoord.x >= 0.0 && shadowCoord.x <= 1.0 && shadowCoord.y >= 0.0 && shadowCoord.y <= 1.0;
			bool frustumTest = inFrustum && shadowCoord.z <= 1.0;
			if ( frustumTest ) {
				vec2 texelSize = vec2( 1.0 ) / shadowMapSize;
				vec2 radius = shadowRadius * texelSize;
				float phi = interleavedGradientNoise( gl_FragCoord.xy ) * PI2;
				shadow = (
					texture( shadowMap, vec3( shadowCoord.xy + vogelDiskSample( 0, 5, phi ) * radius, shadowCoord.z ) ) +
					texture( shadowMap, vec3( shadowCoord.xy + vogelDiskSample( 1, 5, phi ) * radius, shadowCoord.z ) ) +
					texture( shadowMap, vec3( shadowCoord.xy + vogelDiskSample( 2, 5, phi ) * radius, shadowCoord.z ) ) +
					texture( shadowMap, vec3( shadowCoord.xy + vogelDiskSample( 3, 5, phi ) * radius, shadowCoord.z ) ) +
					texture( shadowMap, vec3( shadowCoord.xy + vogelDiskSample( 4, 5, phi ) * radius, shadowCoord.z ) )
				) * 0.2;
			}
			return mix( 1.0, shadow, shadowIntensity );
		}
	#elif defined( SHADOWMAP_TYPE_VSM )
		float getShadow( sampler2D shadowMap, vec2 shadowMapSize, float shadowIntensity, float shadowBias, float shadowRadius, vec4 shadowCoord ) {
			float shadow = 1.0;
			shadowCoord.xyz /= shadowCoord.w;
			#ifdef USE_REVERSED_DEPTH_BUFFER
				shadowCoord.z -= shadowBias;
			#else
				shadowCoord.z += shadowBias;
			#endif
			bool inFrustum = shadowCoord.x >= 0.0 && shadowCoord.x <= 1.0 && shadowCoord.y >= 0.0 && shadowCoord.y <= 1.0;
			bool frustumTest = inFrustum && shadowCoord.z <= 1.0;
			if ( frustumTest ) {
				vec2 distribution = texture2D( shadowMap, shadowCoord.xy ).rg;
				float mean = distribution.x;
				float variance = distribution.y * distribution.y;
				#ifdef USE_REVERSED_DEPTH_BUFFER
					float hard_shadow = step( mean, shadowCoord.z );
				#else
					float hard_shadow = step( shadowCoord.z, mean );
				#endif
				
				if ( hard_shadow == 1.0 ) {
					shadow = 1.0;
				} else {
					variance = max( variance, 0.0000001 );
					float d = shadowCoord.z - mean;
					float p_max = variance / ( variance + d * d );
					p_max = clamp( ( p_max - 0.3 ) / 0.65, 0.0, 1.0 );
					shadow = max( hard_shadow, p_max );
				}
			}
			return mix( 1.0, shadow, shadowIntensity );
		}
	#else
		float getShadow( sampler2D shadowMap, vec2 shadowMapSize, float shadowIntensity, float shadowBias, float shadowRadius, vec4 shadowCoord ) {
			float shadow = 1.0;
			shadowCoord.xyz /= shadowCoord.w;
			#ifdef USE_REVERSED_DEPTH_BUFFER
				shadowCoord.z -= shadowBias;
			#else
				shadowCoord.z += shadowBias;
			#endif
			bool inFrustum = shadowCoord.x >= 0.0 && shadowCoord.x <= 1.0 && shadowCoord.y >= 0.0 && shadowCoord.y <= 1.0;
			bool frustumTest = inFrustum && shadowCoord.z <= 1.0;
			if ( frustumTest ) {
				float depth = texture2D( shadowMap, shadowCoord.xy ).r;
				#ifdef USE_REVERSED_DEPTH_BUFFER
					shadow = step( depth, shadowCoord.z );
				#else
					shadow = step( shadowCoord.z, depth );
				#endif
			}
			return mix( 1.0, shadow, shadowIntensity );
		}
	#endif
	#if NUM_SUN_LIGHT_SHADOWS > 0
		float getSunShadow(
			#if defined( SHADOWMAP_TYPE_PCF )
				sampler2DShadow shadowMap,
			#else
				sampler2D shadowMap,
			#endif
			SunLightShadow sunLightShadow,
			int shadowIndex
		) {
			vec4 shadowWorldPosition = vec4( vSunShadowWorldPosition.xyz + vSunShadowWorldNormal * sunLightShadow.shadowNormalBias, 1.0 );
			float viewDepth = vSunShadowWorldPosition.w;
			int cascadeOffset = shadowIndex * SUN_LIGHT_CASCADES;
			float shadow = 1.0;
			for ( int i = SUN_LIGHT_CASCADES - 1; i >= 0; i -- ) {
				vec4 cascade = sunShadowCascade[ cascadeOffset + i ];
				if ( viewDepth >= cascade.x && viewDepth < cascade.y ) {
					float cascadeShadow = getShadow(
						shadowMap,
						sunLightShadow.shadowMapSize,
						sunLightShadow.shadowIntensity,
						sunLightShadow.shadowBias,
						sunLightShadow.shadowRadius,
						sunShadowMatrix[ cascadeOffset + i ] * shadowWorldPosition
					);
					shadow = mix( cascadeShadow, shadow, smoothstep( cascade.z, cascade.y, viewDepth ) );
				}
			}
			return shadow;
		}
	#endif
	#if NUM_POINT_LIGHT_SHADOWS > 0
	#if defined( SHADOWMAP_TYPE_PCF )
	float getPointShadow( samplerCubeShadow shadowMap, vec2 shadowMapSize, float shadowIntensity, float shadowBias, float shadowRadius, vec4 shadowCoord, float shadowCameraNear, float shadowCameraFar ) {
		float shadow = 1.0;
		vec3 lightToPosition = shadowCoord.xyz;
		vec3 bd3D = normalize( lightToPosition );
		vec3 absVec = abs( lightToPosition );
		float viewSpaceZ = max( max( absVec.x, absVec.y ), absVec.z );
		if ( viewSpaceZ - shadowCameraFar <= 0.0 && viewSpaceZ - shadowCameraNear >= 0.0 ) {
			float lightDistance = length( lightToPosition );
			float depthRange = shadowCameraFar - shadowCameraNear;
			#ifdef USE_REVERSED_DEPTH_BUFFER
				float depthA = - shadowCameraNear / depthRange - shadowBias;
				float depthB = shadowCameraNear * shadowCameraFar / ( depthRange * lightDistance );
			#else
				float depthA = shadowCameraFar / depthRange + shadowBias;
				float depthB = - shadowCameraNear * shadowCameraFar / ( depthRange * lightDistance );
			#endif
			float texelSize = shadowRadius / shadowMapSize.x;
			vec3 absDir = abs( bd3D );
			vec3 tangent = absDir.x > absDir.z ? vec3( 0.0, 1.0, 0.0 ) : vec3( 1.0, 0.0, 0.0 );
			tangent = normalize( cross( bd3D, tangent ) );
			vec3 bitangent = cross( bd3D, tangent );
			float phi = interleavedGradientNoise( gl_FragCoord.xy ) * PI2;
			shadow = 0.0;
			for ( int i = 0; i < 5; i ++ ) {
				vec2 offset = vogelDiskSample( i, 5, phi );
				vec3 direction = bd3D + ( tangent * offset.x + bitangent * offset.y ) * texelSize;
				vec3 absDirection = abs( direction );
				float dp = depthA + depthB / max( max( absDirection.x, absDirection.y ), absDirection.z );
				shadow += texture( shadowMap, vec4( direction, dp ) );
			}
			shadow *= 0.2;
		}
		return mix( 1.0, shadow, shadowIntensity );
	}
	#elif defined( SHADOWMAP_TYPE_BASIC )
	float getPointShadow( samplerCube shadowMap, vec2 shadowMapSize, float shadowIntensity, float shadowBias, float shadowRadius, vec4 shadowCoord, float shadowCameraNear, float shadowCameraFar ) {
		float shadow = 1.0;
		vec3 lightToPosition = shadowCoord.xyz;
		vec3 absVec = abs( lightToPosition );
		float viewSpaceZ = max( max( absVec.x, absVec.y ), absVec.z );
		if ( viewSpaceZ - shadowCameraFar <= 0.0 && viewSpaceZ - shadowCameraNear >= 0.0 ) {
			float dp = ( shadowCameraFar * ( viewSpaceZ - shadowCameraNear ) ) / ( viewSpaceZ * ( shadowCameraFar - shadowCameraNear ) );
			dp += shadowBias;
			vec3 bd3D = normalize( lightToPosition );
			float depth = textureCube( shadowMap, bd3D ).r;
			#ifdef USE_REVERSED_DEPTH_BUFFER
				depth = 1.0 - depth;
			#endif
			shadow = step( dp, depth );
		}
		return mix( 1.0, shadow, shadowIntensity );
	}
	#endif
	#endif
#endif`,J_=`#if NUM_SPOT_LIGHT_COORDS > 0
	uniform mat4 spotLightMatrix[ NUM_SPOT_LIGHT_COORDS ];
	varying vec4 vSpotLightCoord[ NUM_SPOT_LIGHT_COORDS ];
#endif
#ifdef USE_SHADOWMAP
	#if NUM_SUN_LIGHT_SHADOWS > 0
		varying vec4 vSunShadowWorldPosition;
		varying vec3 vSunShadowWorldNormal;
	#endif
	#if NUM_DIR_LIGHT_SHADOWS > 0
		uniform mat4 directionalShadowMatrix[ NUM_DIR_LIGHT_SHADOWS ];
		varying vec4 vDirectionalShadowCoord[ NUM_DIR_LIGHT_SHADOWS ];
		struct DirectionalLightShadow {
			float shadowIntensity;
			float shadowBias;
			float shadowNormalBias;
			float shadowRadius;
			vec2 shadowMapSize;
		};
		uniform DirectionalLightShadow directionalLightShadows[ NUM_DIR_LIGHT_SHADOWS ];
	#endif
	#if NUM_SPOT_LIGHT_SHADOWS > 0
		struct SpotLightShadow {
			float shadowIntensity;
			float shadowBias;
			float shadowNormalBias;
			float shadowRadius;
			vec2 shadowMapSize;
		};
		uniform SpotLightShadow spotLightShadows[ NUM_SPOT_LIGHT_SHADOWS ];
	#endif
	#if NUM_POINT_LIGHT_SHADOWS > 0
		uniform mat4 pointShadowMatrix[ NUM_POINT_LIGHT_SHADOWS ];
		varying vec4 vPointShadowCoord[ NUM_POINT_LIGHT_SHADOWS ];
		struct PointLightShadow {
			float shadowIntensity;
			float shadowBias;
			float shadowNormalBias;
			float shadowRadius;
			vec2 shadowMapSize;
			float shadowCameraNear;
			float shadowCameraFar;
		};
		uniform PointLightShadow pointLightShadows[ NUM_POINT_LIGHT_SHADOWS ];
	#endif
#endif`,K_=`#if ( defined( USE_SHADOWMAP ) && ( NUM_DIR_LIGHT_SHADOWS > 0 || NUM_SUN_LIGHT_SHADOWS > 0 || NUM_POINT_LIGHT_SHADOWS > 0 ) ) || ( NUM_SPOT_LIGHT_COORDS > 0 )
	#ifdef HAS_NORMAL
		vec3 shadowWorldNormal = transformNormalByInverseViewMatrix( transformedNormal, viewMatrix );
	#else
		vec3 shadowWorldNormal = vec3( 0.0 );
	#endif
	vec4 shadowWorldPosition;
#endif
#if defined( USE_SHADOWMAP )
	#if NUM_SUN_LIGHT_SHADOWS > 0
		vSunShadowWorldPosition = vec4( worldPosition.xyz, - mvPosition.z );
		vSunShadowWorldNormal = shadowWorldNormal;
	#endif
	#if NUM_DIR_LIGHT_SHADOWS > 0
		#pragma unroll_loop_start
		for ( int i = 0; i < NUM_DIR_LIGHT_SHADOWS; i ++ ) {
			shadowWorldPosition = worldPosition + vec4( shadowWorldNormal * directionalLightShadows[ i ].shadowNormalBias, 0 );
			vDirectionalShadowCoord[ i ] = directionalShadowMatrix[ i ] * shadowWorldPosition;
		}
		#pragma unroll_loop_end
	#endif
	#if NUM_POINT_LIGHT_SHADOWS > 0
		#pragma unroll_loop_start
		for ( int i = 0; i < NUM_POINT_LIGHT_SHADOWS; i ++ ) {
			shadowWorldPosition = worldPosition + vec4( shadowWorldNormal * pointLightShadows[ i ].shadowNormalBias, 0 );
			vPointShadowCoord[ i ] = pointShadowMatrix[ i ] * shadowWorldPosition;
		}
		#pragma unroll_loop_end
	#endif
#endif
#if NUM_SPOT_LIGHT_COORDS > 0
	#pragma unroll_loop_start
	for ( int i = 0; i < NUM_SPOT_LIGHT_COORDS; i ++ ) {
		shadowWorldPosition = worldPosition;
		#if ( defined( USE_SHADOWMAP ) && UNROLLED_LOOP_INDEX < NUM_SPOT_LIGHT_SHADOWS )
			shadowWorldPosition.xyz += shadowWorldNormal * spotLightShadows[ i ].shadowNormalBias;
		#endif
		vSpotLightCoord[ i ] = spotLightMatrix[ i ] * shadowWorldPosition;
	}
	#pragma unroll_loop_end
#endif`,j_=`float getShadowMask() {
	float shadow = 1.0;
	#ifdef USE_SHADOWMAP
	#if NUM_SUN_LIGHT_SHADOWS > 0
	SunLightShadow sunLight;
	#pragma unroll_loop_start
	for ( int i = 0; i < NUM_SUN_LIGHT_SHADOWS; i ++ ) {
		sunLight = sunLightShadows[ i ];
		shadow *= receiveShadow ? getSunShadow( sunShadowMap[ i ], sunLight, UNROLLED_LOOP_INDEX ) : 1.0;
	}
	#pragma unroll_loop_end
	#endif
	#if NUM_DIR_LIGHT_SHADOWS > 0
	DirectionalLightShadow directionalLight;
	#pragma unroll_loop_start
	for ( int i = 0; i < NUM_DIR_LIGHT_SHADOWS; i ++ ) {
		directionalLight = directionalLightShadows[ i ];
		shadow *= receiveShadow ? getShadow( directionalShadowMap[ i ], directionalLight.shadowMapSize, directionalLight.shadowIntensity, directionalLight.shadowBias, directionalLight.shadowRadius, vDirectionalShadowCoord[ i ] ) : 1.0;
	}
	#pragma unroll_loop_end
	#endif
	#if NUM_SPOT_LIGHT_SHADOWS > 0
	SpotLightShadow spotLight;
	#pragma unroll_loop_start
	for ( int i = 0; i < NUM_SPOT_LIGHT_SHADOWS; i ++ ) {
		spotLight = spotLightShadows[ i ];
		shadow *= receiveShadow ? getShadow( spotShadowMap[ i ], spotLight.shadowMapSize, spotLight.shadowIntensity, spotLight.shadowBias, spotLight.shadowRadius, vSpotLightCoord[ i ] ) : 1.0;
	}
	#pragma unroll_loop_end
	#endif
	#if NUM_POINT_LIGHT_SHADOWS > 0 && ( defined( SHADOWMAP_TYPE_PCF ) || defined( SHADOWMAP_TYPE_BASIC ) )
	PointLightShadow pointLight;
	#pragma unroll_loop_start
	for ( int i = 0; i < NUM_POINT_LIGHT_SHADOWS; i ++ ) {
		pointLight = pointLightShadows[ i ];
		shadow *= receiveShadow ? getPointShadow( pointShadowMap[ i ], pointLight.shadowMapSize, pointLight.shadowIntensity, pointLight.shadowBias, pointLight.shadowRadius, vPointShadowCoord[ i ], pointLight.shadowCameraNear, pointLight.shadowCameraFar ) : 1.0;
	}
	#pragma unroll_loop_end
	#endif
	#endif
	return shadow;
}`,Q_=`#ifdef USE_SKINNING
	mat4 boneMatX = getBoneMatrix( skinIndex.x );
	mat4 boneMatY = getBoneMatrix( skinIndex.y );
	mat4 boneMatZ = getBoneMatrix( skinIndex.z );
	mat4 boneMatW = getBoneMatrix( skinIndex.w );
#endif`,tx=`#ifdef USE_SKINNING
	uniform mat4 bindMatrix;
	uniform mat4 bindMatrixInverse;
	uniform highp sampler2D boneTexture;
	mat4 getBoneMatrix( const in float i ) {
		int size = textureSize( boneTexture, 0 ).x;
		int j = int( i ) * 4;
		int x = j % size;
		int y = j / size;
		vec4 v1 = texelFetch( boneTexture, ivec2( x, y ), 0 );
		vec4 v2 = texelFetch( boneTexture, ivec2( x + 1, y ), 0 );
		vec4 v3 = texelFetch( boneTexture, ivec2( x + 2, y ), 0 );
		vec4 v4 = texelFetch( boneTexture, ivec2( x + 3, y ), 0 );
		return mat4( v1, v2, v3, v4 );
	}
#endif`,ex=`#ifdef USE_SKINNING
	vec4 skinVertex = bindMatrix * vec4( transformed, 1.0 );
	vec4 skinned = vec4( 0.0 );
	skinned += boneMatX * skinVertex * skinWeight.x;
	skinned += boneMatY * skinVertex * skinWeight.y;
	skinned += boneMatZ * skinVertex * skinWeight.z;
	skinned += boneMatW * skinVertex * skinWeight.w;
	transformed = ( bindMatrixInverse * skinned ).xyz;
#endif`,nx=`#ifdef USE_SKINNING
	mat4 skinMatrix = mat4( 0.0 );
	skinMatrix += skinWeight.x * boneMatX;
	skinMatrix += skinWeight.y * boneMatY;
	skinMatrix += skinWeight.z * boneMatZ;
	skinMatrix += skinWeight.w * boneMatW;
	skinMatrix = bindMatrixInverse * skinMatrix * bindMatrix;
	objectNormal = vec4( skinMatrix * vec4( objectNormal, 0.0 ) ).xyz;
	#ifdef USE_TANGENT
		objectTangent = vec4( skinMatrix * vec4( objectTangent, 0.0 ) ).xyz;
	#endif
#endif`,ix=`float specularStrength;
#ifdef USE_SPECULARMAP
	vec4 texelSpecular = texture2D( specularMap, vSpecularMapUv );
	specularStrength = texelSpecular.r;
#else
	specularStrength = 1.0;
#endif`,sx=`#ifdef USE_SPECULARMAP
	uniform sampler2D specularMap;
#endif`,rx=`#if defined( TONE_MAPPING )
	gl_FragColor.rgb = toneMapping( gl_FragColor.rgb );
#endif`,ax=`#ifndef saturate
#define saturate( a ) clamp( a, 0.0, 1.0 )
#endif
uniform float toneMappingExposure;
vec3 LinearToneMapping( vec3 color ) {
	return saturate( toneMappingExposure * color );
}
vec3 ReinhardToneMapping( vec3 color ) {
	color *= toneMappingExposure;
	return saturate( color / ( vec3( 1.0 ) + color ) );
}
vec3 CineonToneMapping( vec3 color ) {
	color *= toneMappingExposure;
	color = max( vec3( 0.0 ), color - 0.004 );
	return pow( ( color * ( 6.2 * color + 0.5 ) ) / ( color * ( 6.2 * color + 1.7 ) + 0.06 ), vec3( 2.2 ) );
}
vec3 RRTAndODTFit( vec3 v ) {
	vec3 a = v * ( v + 0.0245786 ) - 0.000090537;
	vec3 b = v * ( 0.983729 * v + 0.4329510 ) + 0.238081;
	return a / b;
}
vec3 ACESFilmicToneMapping( vec3 color ) {
	const mat3 ACESInputMat = mat3(
		vec3( 0.59719, 0.07600, 0.02840 ),		vec3( 0.35458, 0.90834, 0.13383 ),
		vec3( 0.04823, 0.01566, 0.83777 )
	);
	const mat3 ACESOutputMat = mat3(
		vec3(  1.60475, -0.10208, -0.00327 ),		vec3( -0.53108,  1.10813, -0.07276 ),
		vec3( -0.07367, -0.00605,  1.07602 )
	);
	color *= toneMappingExposure / 0.6;
	color = ACESInputMat * color;
	color = RRTAndODTFit( color );
	color = ACESOutputMat * color;
	return saturate( color );
}
const mat3 LINEAR_REC2020_TO_LINEAR_SRGB = mat3(
	vec3( 1.6605, - 0.1246, - 0.0182 ),
	vec3( - 0.5876, 1.1329, - 0.1006 ),
	vec3( - 0.0728, - 0.0083, 1.1187 )
);
const mat3 LINEAR_SRGB_TO_LINEAR_REC2020 = mat3(
	vec3( 0.6274, 0.0691, 0.0164 ),
	vec3( 0.3293, 0.9195, 0.0880 ),
	vec3( 0.0433, 0.0113, 0.8956 )
);
vec3 agxDefaultContrastApprox( vec3 x ) {
	vec3 x2 = x * x;
	vec3 x4 = x2 * x2;
	return + 15.5 * x4 * x2
		- 40.14 * x4 * x
		+ 31.96 * x4
		- 6.868 * x2 * x
		+ 0.4298 * x2
		+ 0.1191 * x
		- 0.00232;
}
vec3 AgXToneMapping( vec3 color ) {
	const mat3 AgXInsetMatrix = mat3(
		vec3( 0.856627153315983, 0.137318972929847, 0.11189821299995 ),
		vec3( 0.0951212405381588, 0.761241990602591, 0.0767994186031903 ),
		vec3( 0.0482516061458583, 0.101439036467562, 0.811302368396859 )
	);
	const mat3 AgXOutsetMatrix = mat3(
		vec3( 1.1271005818144368, - 0.1413297634984383, - 0.14132976349843826 ),
		vec3( - 0.11060664309660323, 1.157823702216272, - 0.11060664309660294 ),
		vec3( - 0.016493938717834573, - 0.016493938717834257, 1.2519364065950405 )
	);
	const float AgxMinEv = - 12.47393;	const float AgxMaxEv = 4.026069;
	color *= toneMappingExposure;
	color = LINEAR_SRGB_TO_LINEAR_REC2020 * color;
	color = AgXInsetMatrix * color;
	color = max( color, 1e-10 );	color = log2( color );
	color = ( color - AgxMinEv ) / ( AgxMaxEv - AgxMinEv );
	color = clamp( color, 0.0, 1.0 );
	color = agxDefaultContrastApprox( color );
	color = AgXOutsetMatrix * color;
	color = pow( max( vec3( 0.0 ), color ), vec3( 2.2 ) );
	color = LINEAR_REC2020_TO_LINEAR_SRGB * color;
	color = clamp( color, 0.0, 1.0 );
	return color;
}
vec3 NeutralToneMapping( vec3 color ) {
	const float StartCompression = 0.8 - 0.04;
	const float Desaturation = 0.15;
	color *= toneMappingExposure;
	float x = min( color.r, min( color.g, color.b ) );
	float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
	color -= offset;
	float peak = max( color.r, max( color.g, color.b ) );
	if ( peak < StartCompression ) return color;
	float d = 1. - StartCompression;
	float newPeak = 1. - d * d / ( peak + d - StartCompression );
	color *= newPeak / peak;
	float g = 1. - 1. / ( Desaturation * ( peak - newPeak ) + 1. );
	return mix( color, vec3( newPeak ), g );
}
vec3 CustomToneMapping( vec3 color ) { return color; }`,ox=`#ifdef USE_TRANSMISSION
	material.transmission = transmission;
	material.transmissionAlpha = 1.0;
	material.thickness = thickness;
	material.attenuationDistance = attenuationDistance;
	material.attenuationColor = attenuationColor;
	#ifdef USE_TRANSMISSIONMAP
		material.transmission *= texture2D( transmissionMap, vTransmissionMapUv ).r;
	#endif
	#ifdef USE_THICKNESSMAP
		material.thickness *= texture2D( thicknessMap, vThicknessMapUv ).g;
	#endif
	vec3 pos = vWorldPosition;
	vec3 v = normalize( cameraPosition - pos );
	vec3 n = transformNormalByInverseViewMatrix( normal, viewMatrix );
	vec4 transmitted = getIBLVolumeRefraction(
		n, v, material.roughness, material.diffuseContribution, material.specularColorBlended, material.specularF90,
		pos, modelMatrix, viewMatrix, projectionMatrix, material.dispersion, material.ior, material.thickness,
		material.attenuationColor, material.attenuationDistance );
	material.transmissionAlpha = mix( material.transmissionAlpha, transmitted.a, material.transmission );
	totalDiffuse = mix( totalDiffuse, transmitted.rgb, material.transmission );
#endif`,lx=`#ifdef USE_TRANSMISSION
	uniform float transmission;
	uniform float thickness;
	uniform float attenuationDistance;
	uniform vec3 attenuationColor;
	#ifdef USE_TRANSMISSIONMAP
		uniform sampler2D transmissionMap;
	#endif
	#ifdef USE_THICKNESSMAP
		uniform sampler2D thicknessMap;
	#endif
	uniform vec2 transmissionSamplerSize;
	uniform sampler2D transmissionSamplerMap;
	uniform mat4 modelMatrix;
	uniform mat4 projectionMatrix;
	varying vec3 vWorldPosition;
	float w0( float a ) {
		return ( 1.0 / 6.0 ) * ( a * ( a * ( - a + 3.0 ) - 3.0 ) + 1.0 );
	}
	float w1( float a ) {
		return ( 1.0 / 6.0 ) * ( a *  a * ( 3.0 * a - 6.0 ) + 4.0 );
	}
	float w2( float a ){
		return ( 1.0 / 6.0 ) * ( a * ( a * ( - 3.0 * a + 3.0 ) + 3.0 ) + 1.0 );
	}
	float w3( float a ) {
		return ( 1.0 / 6.0 ) * ( a * a * a );
	}
	float g0( float a ) {
		return w0( a ) + w1( a );
	}
	float g1( float a ) {
		return w2( a ) + w3( a );
	}
	float h0( float a ) {
		return - 1.0 + w1( a ) / ( w0( a ) + w1( a ) );
	}
	float h1( float a ) {
		return 1.0 + w3( a ) / ( w2( a ) + w3( a ) );
	}
	vec4 bicubic( sampler2D tex, vec2 uv, vec4 texelSize, float lod ) {
		uv = uv * texelSize.zw + 0.5;
		vec2 iuv = floor( uv );
		vec2 fuv = fract( uv );
		float g0x = g0( fuv.x );
		float g1x = g1( fuv.x );
		float h0x = h0( fuv.x );
		float h1x = h1( fuv.x );
		float h0y = h0( fuv.y );
		float h1y = h1( fuv.y );
		vec2 p0 = ( vec2( iuv.x + h0x, iuv.y + h0y ) - 0.5 ) * texelSize.xy;
		vec2 p1 = ( vec2( iuv.x + h1x, iuv.y + h0y ) - 0.5 ) * texelSize.xy;
		vec2 p2 = ( vec2( iuv.x + h0x, iuv.y + h1y ) - 0.5 ) * texelSize.xy;
		vec2 p3 = ( vec2( iuv.x + h1x, iuv.y + h1y ) - 0.5 ) * texelSize.xy;
		return g0( fuv.y ) * ( g0x * textureLod( tex, p0, lod ) + g1x * textureLod( tex, p1, lod ) ) +
			g1( fuv.y ) * ( g0x * textureLod( tex, p2, lod ) + g1x * textureLod( tex, p3, lod ) );
	}
	vec4 textureBicubic( sampler2D sampler, vec2 uv, float lod ) {
		vec2 fLodSize = vec2( textureSize( sampler, int( lod ) ) );
		vec2 cLodSize = vec2( textureSize( sampler, int( lod + 1.0 ) ) );
		vec2 fLodSizeInv = 1.0 / fLodSize;
		vec2 cLodSizeInv = 1.0 / cLodSize;
		vec4 fSample = bicubic( sampler, uv, vec4( fLodSizeInv, fLodSize ), floor( lod ) );
		vec4 cSample = bicubic( sampler, uv, vec4( cLodSizeInv, cLodSize ), ceil( lod ) );
		return mix( fSample, cSample, fract( lod ) );
	}
	vec3 getVolumeTransmissionRay( const in vec3 n, const in vec3 v, const in float thickness, const in float ior, const in mat4 modelMatrix ) {
		vec3 refractionVector = refract( - v, normalize( n ), 1.0 / ior );
		vec3 modelScale;
		modelScale.x = length( vec3( modelMatrix[ 0 ].xyz ) );
		modelScale.y = length( vec3( modelMatrix[ 1 ].xyz ) );
		modelScale.z = length( vec3( modelMatrix[ 2 ].xyz ) );
		return normalize( refractionVector ) * thickness * modelScale;
	}
	float applyIorToRoughness( const in float roughness, const in float ior ) {
		return roughness * clamp( ior * 2.0 - 2.0, 0.0, 1.0 );
	}
	vec4 getTransmissionSample( const in vec2 fragCoord, const in float roughness, const in float ior ) {
		float lod = log2( transmissionSamplerSize.x ) * applyIorToRoughness( roughness, ior );
		return textureBicubic( transmissionSamplerMap, fragCoord.xy, lod );
	}
	vec3 volumeAttenuation( const in float transmissionDistance, const in vec3 attenuationColor, const in float attenuationDistance ) {
		if ( isinf( attenuationDistance ) ) {
			return vec3( 1.0 );
		} else {
			vec3 attenuationCoefficient = -log( attenuationColor ) / attenuationDistance;
			vec3 transmittance = exp( - attenuationCoefficient * transmissionDistance );			return transmittance;
		}
	}
	vec4 getIBLVolumeRefraction( const in vec3 n, const in vec3 v, const in float roughness, const in vec3 diffuseColor,
		const in vec3 specularColor, const in float specularF90, const in vec3 position, const in mat4 modelMatrix,
		const in mat4 viewMatrix, const in mat4 projMatrix, const in float dispersion, const in float ior, const in float thickness,
		const in vec3 attenuationColor, const in float attenuationDistance ) {
		vec4 transmittedLight;
		vec3 transmittance;
		#ifdef USE_DISPERSION
			float halfSpread = ( ior - 1.0 ) * 0.025 * dispersion;
			vec3 iors = vec3( ior - halfSpread, ior, ior + halfSpread );
			for ( int i = 0; i < 3; i ++ ) {
				vec3 transmissionRay = getVolumeTransmissionRay( n, v, thickness, iors[ i ], modelMatrix );
				vec3 refractedRayExit = position + transmissionRay;
				vec4 ndcPos = projMatrix * viewMatrix * vec4( refractedRayExit, 1.0 );
				vec2 refractionCoords = ndcPos.xy / ndcPos.w;
				refractionCoords += 1.0;
				refractionCoords /= 2.0;
				vec4 transmissionSample = getTransmissionSample( refractionCoords, roughness, iors[ i ] );
				transmittedLight[ i ] = transmissionSample[ i ];
				transmittedLight.a += transmissionSample.a;
				transmittance[ i ] = diffuseColor[ i ] * volumeAttenuation( length( transmissionRay ), attenuationColor, attenuationDistance )[ i ];
			}
			transmittedLight.a /= 3.0;
		#else
			vec3 transmissionRay = getVolumeTransmissionRay( n, v, thickness, ior, modelMatrix );
			vec3 refractedRayExit = position + transmissionRay;
			vec4 ndcPos = projMatrix * viewMatrix * vec4( refractedRayExit, 1.0 );
			vec2 refractionCoords = ndcPos.xy / ndcPos.w;
			refractionCoords += 1.0;
			refractionCoords /= 2.0;
			transmittedLight = getTransmissionSample( refractionCoords, roughness, ior );
			transmittance = diffuseColor * volumeAttenuation( length( transmissionRay ), attenuationColor, attenuationDistance );
		#endif
		vec3 attenuatedColor = transmittance * transmittedLight.rgb;
		vec3 F = EnvironmentBRDF( n, v, specularColor, specularF90, roughness );
		float transmittanceFactor = ( transmittance.r + transmittance.g + transmittance.b ) / 3.0;
		return vec4( ( 1.0 - F ) * attenuatedColor, 1.0 - ( 1.0 - transmittedLight.a ) * transmittanceFactor );
	}
#endif`,cx=`#if defined( USE_UV ) || defined( USE_ANISOTROPY )
	varying vec2 vUv;
#endif
#ifdef USE_MAP
	varying vec2 vMapUv;
#endif
#ifdef USE_ALPHAMAP
	varying vec2 vAlphaMapUv;
#endif
#ifdef USE_LIGHTMAP
	varying vec2 vLightMapUv;
#endif
#ifdef USE_AOMAP
	varying vec2 vAoMapUv;
#endif
#ifdef USE_BUMPMAP
	varying vec2 vBumpMapUv;
#endif
#ifdef USE_NORMALMAP
	varying vec2 vNormalMapUv;
#endif
#ifdef USE_EMISSIVEMAP
	varying vec2 vEmissiveMapUv;
#endif
#ifdef USE_METALNESSMAP
	varying vec2 vMetalnessMapUv;
#endif
#ifdef USE_ROUGHNESSMAP
	varying vec2 vRoughnessMapUv;
#endif
#ifdef USE_DIFFUSE_ROUGHNESSMAP
	varying vec2 vDiffuseRoughnessMapUv;
#endif
#ifdef USE_ANISOTROPYMAP
	varying vec2 vAnisotropyMapUv;
#endif
#ifdef USE_CLEARCOATMAP
	varying vec2 vClearcoatMapUv;
#endif
#ifdef USE_CLEARCOAT_NORMALMAP
	varying vec2 vClearcoatNormalMapUv;
#endif
#ifdef USE_CLEARCOAT_ROUGHNESSMAP
	varying vec2 vClearcoatRoughnessMapUv;
#endif
#ifdef USE_IRIDESCENCEMAP
	varying vec2 vIridescenceMapUv;
#endif
#ifdef USE_IRIDESCENCE_THICKNESSMAP
	varying vec2 vIridescenceThicknessMapUv;
#endif
#ifdef USE_SHEEN_COLORMAP
	varying vec2 vSheenColorMapUv;
#endif
#ifdef USE_SHEEN_ROUGHNESSMAP
	varying vec2 vSheenRoughnessMapUv;
#endif
#ifdef USE_SPECULARMAP
	varying vec2 vSpecularMapUv;
#endif
#ifdef USE_SPECULAR_COLORMAP
	varying vec2 vSpecularColorMapUv;
#endif
#ifdef USE_SPECULAR_INTENSITYMAP
	varying vec2 vSpecularIntensityMapUv;
#endif
#ifdef USE_TRANSMISSIONMAP
	uniform mat3 transmissionMapTransform;
	varying vec2 vTransmissionMapUv;
#endif
#ifdef USE_THICKNESSMAP
	uniform mat3 thicknessMapTransform;
	varying vec2 vThicknessMapUv;
#endif`,hx=`#if defined( USE_UV ) || defined( USE_ANISOTROPY )
	varying vec2 vUv;
#endif
#ifdef USE_MAP
	uniform mat3 mapTransform;
	varying vec2 vMapUv;
#endif
#ifdef USE_ALPHAMAP
	uniform mat3 alphaMapTransform;
	varying vec2 vAlphaMapUv;
#endif
#ifdef USE_LIGHTMAP
	uniform mat3 lightMapTransform;
	varying vec2 vLightMapUv;
#endif
#ifdef USE_AOMAP
	uniform mat3 aoMapTransform;
	varying vec2 vAoMapUv;
#endif
#ifdef USE_BUMPMAP
	uniform mat3 bumpMapTransform;
	varying vec2 vBumpMapUv;
#endif
#ifdef USE_NORMALMAP
	uniform mat3 normalMapTransform;
	varying vec2 vNormalMapUv;
#endif
#ifdef USE_DISPLACEMENTMAP
	uniform mat3 displacementMapTransform;
	varying vec2 vDisplacementMapUv;
#endif
#ifdef USE_EMISSIVEMAP
	uniform mat3 emissiveMapTransform;
	varying vec2 vEmissiveMapUv;
#endif
#ifdef USE_METALNESSMAP
	uniform mat3 metalnessMapTransform;
	varying vec2 vMetalnessMapUv;
#endif
#ifdef USE_ROUGHNESSMAP
	uniform mat3 roughnessMapTransform;
	varying vec2 vRoughnessMapUv;
#endif
#ifdef USE_DIFFUSE_ROUGHNESSMAP
	uniform mat3 diffuseRoughnessMapTransform;
	varying vec2 vDiffuseRoughnessMapUv;
#endif
#ifdef USE_ANISOTROPYMAP
	uniform mat3 anisotropyMapTransform;
	varying vec2 vAnisotropyMapUv;
#endif
#ifdef USE_CLEARCOATMAP
	uniform mat3 clearcoatMapTransform;
	varying vec2 vClearcoatMapUv;
#endif
#ifdef USE_CLEARCOAT_NORMALMAP
	uniform mat3 clearcoatNormalMapTransform;
	varying vec2 vClearcoatNormalMapUv;
#endif
#ifdef USE_CLEARCOAT_ROUGHNESSMAP
	uniform mat3 clearcoatRoughnessMapTransform;
	varying vec2 vClearcoatRoughnessMapUv;
#endif
#ifdef USE_SHEEN_COLORMAP
	uniform mat3 sheenColorMapTransform;
	varying vec2 vSheenColorMapUv;
#endif
#ifdef USE_SHEEN_ROUGHNESSMAP
	uniform mat3 sheenRoughnessMapTransform;
	varying vec2 vSheenRoughnessMapUv;
#endif
#ifdef USE_IRIDESCENCEMAP
	uniform mat3 iridescenceMapTransform;
	varying vec2 vIridescenceMapUv;
#endif
#ifdef USE_IRIDESCENCE_THICKNESSMAP
	uniform mat3 iridescenceThicknessMapTransform;
	varying vec2 vIridescenceThicknessMapUv;
#endif
#ifdef USE_SPECULARMAP
	uniform mat3 specularMapTransform;
	varying vec2 vSpecularMapUv;
#endif
#ifdef USE_SPECULAR_COLORMAP
	uniform mat3 specularColorMapTransform;
	varying vec2 vSpecularColorMapUv;
#endif
#ifdef USE_SPECULAR_INTENSITYMAP
	uniform mat3 specularIntensityMapTransform;
	varying vec2 vSpecularIntensityMapUv;
#endif
#ifdef USE_TRANSMISSIONMAP
	uniform mat3 transmissionMapTransform;
	varying vec2 vTransmissionMapUv;
#endif
#ifdef USE_THICKNESSMAP
	uniform mat3 thicknessMapTransform;
	varying vec2 vThicknessMapUv;
#endif`,ux=`#if defined( USE_UV ) || defined( USE_ANISOTROPY )
	vUv = vec3( uv, 1 ).xy;
#endif
#ifdef USE_MAP
	vMapUv = ( mapTransform * vec3( MAP_UV, 1 ) ).xy;
#endif
#ifdef USE_ALPHAMAP
	vAlphaMapUv = ( alphaMapTransform * vec3( ALPHAMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_LIGHTMAP
	vLightMapUv = ( lightMapTransform * vec3( LIGHTMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_AOMAP
	vAoMapUv = ( aoMapTransform * vec3( AOMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_BUMPMAP
	vBumpMapUv = ( bumpMapTransform * vec3( BUMPMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_NORMALMAP
	vNormalMapUv = ( normalMapTransform * vec3( NORMALMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_DISPLACEMENTMAP
	vDisplacementMapUv = ( displacementMapTransform * vec3( DISPLACEMENTMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_EMISSIVEMAP
	vEmissiveMapUv = ( emissiveMapTransform * vec3( EMISSIVEMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_METALNESSMAP
	vMetalnessMapUv = ( metalnessMapTransform * vec3( METALNESSMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_ROUGHNESSMAP
	vRoughnessMapUv = ( roughnessMapTransform * vec3( ROUGHNESSMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_DIFFUSE_ROUGHNESSMAP
	vDiffuseRoughnessMapUv = ( diffuseRoughnessMapTransform * vec3( DIFFUSE_ROUGHNESSMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_ANISOTROPYMAP
	vAnisotropyMapUv = ( anisotropyMapTransform * vec3( ANISOTROPYMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_CLEARCOATMAP
	vClearcoatMapUv = ( clearcoatMapTransform * vec3( CLEARCOATMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_CLEARCOAT_NORMALMAP
	vClearcoatNormalMapUv = ( clearcoatNormalMapTransform * vec3( CLEARCOAT_NORMALMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_CLEARCOAT_ROUGHNESSMAP
	vClearcoatRoughnessMapUv = ( clearcoatRoughnessMapTransform * vec3( CLEARCOAT_ROUGHNESSMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_IRIDESCENCEMAP
	vIridescenceMapUv = ( iridescenceMapTransform * vec3( IRIDESCENCEMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_IRIDESCENCE_THICKNESSMAP
	vIridescenceThicknessMapUv = ( iridescenceThicknessMapTransform * vec3( IRIDESCENCE_THICKNESSMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_SHEEN_COLORMAP
	vSheenColorMapUv = ( sheenColorMapTransform * vec3( SHEEN_COLORMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_SHEEN_ROUGHNESSMAP
	vSheenRoughnessMapUv = ( sheenRoughnessMapTransform * vec3( SHEEN_ROUGHNESSMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_SPECULARMAP
	vSpecularMapUv = ( specularMapTransform * vec3( SPECULARMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_SPECULAR_COLORMAP
	vSpecularColorMapUv = ( specularColorMapTransform * vec3( SPECULAR_COLORMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_SPECULAR_INTENSITYMAP
	vSpecularIntensityMapUv = ( specularIntensityMapTransform * vec3( SPECULAR_INTENSITYMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_TRANSMISSIONMAP
	vTransmissionMapUv = ( transmissionMapTransform * vec3( TRANSMISSIONMAP_UV, 1 ) ).xy;
#endif
#ifdef USE_THICKNESSMAP
	vThicknessMapUv = ( thicknessMapTransform * vec3( THICKNESSMAP_UV, 1 ) ).xy;
#endif`,dx=`#if defined( USE_ENVMAP ) || defined( DISTANCE ) || defined ( USE_SHADOWMAP ) || defined ( USE_TRANSMISSION ) || NUM_SPOT_LIGHT_COORDS > 0
	vec4 worldPosition = vec4( transformed, 1.0 );
	#ifdef USE_BATCHING
		worldPosition = batchingMatrix * worldPosition;
	#endif
	#ifdef USE_INSTANCING
		worldPosition = instanceMatrix * worldPosition;
	#endif
	worldPosition = modelMatrix * worldPosition;
#endif`,fx=`varying vec2 vUv;
uniform mat3 uvTransform;
void main() {
	vUv = ( uvTransform * vec3( uv, 1 ) ).xy;
	gl_Position = vec4( position.xy, 1.0, 1.0 );
}`,px=`uniform sampler2D t2D;
uniform float backgroundIntensity;
varying vec2 vUv;
void main() {
	vec4 texColor = texture2D( t2D, vUv );
	#ifdef DECODE_VIDEO_TEXTURE
		texColor = vec4( mix( pow( texColor.rgb * 0.9478672986 + vec3( 0.0521327014 ), vec3( 2.4 ) ), texColor.rgb * 0.0773993808, vec3( lessThanEqual( texColor.rgb, vec3( 0.04045 ) ) ) ), texColor.w );
	#endif
	texColor.rgb *= backgroundIntensity;
	gl_FragColor = texColor;
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
}`,mx=`varying vec3 vWorldDirection;
#include <common>
void main() {
	vWorldDirection = transformDirection( position, modelMatrix );
	#include <begin_vertex>
	#include <project_vertex>
	gl_Position.z = gl_Position.w;
}`,gx=`uniform float backgroundBlurriness;
uniform float backgroundIntensity;
uniform mat3 backgroundRotation;
varying vec3 vWorldDirection;
#include <envmap_common_pars_fragment>
void main() {
	#ifdef ENVMAP_TYPE_PMREM
		vec4 texColor = textureLod( envMap, backgroundRotation * vWorldDirection, roughnessToMip( backgroundBlurriness ) );
	#else
		vec4 texColor = textureCube( envMap, backgroundRotation * vWorldDirection );
	#endif
	texColor.rgb *= backgroundIntensity;
	gl_FragColor = texColor;
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
}`,_x=`varying vec3 vWorldDirection;
#include <common>
void main() {
	vWorldDirection = transformDirection( position, modelMatrix );
	#include <begin_vertex>
	#include <project_vertex>
	gl_Position.z = gl_Position.w;
}`,xx=`uniform samplerCube tCube;
uniform float tFlip;
uniform float opacity;
varying vec3 vWorldDirection;
void main() {
	vec4 texColor = textureCube( tCube, vec3( tFlip * vWorldDirection.x, vWorldDirection.yz ) );
	gl_FragColor = texColor;
	gl_FragColor.a *= opacity;
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
}`,yx=`#include <common>
#include <batching_pars_vertex>
#include <uv_pars_vertex>
#include <displacementmap_pars_vertex>
#include <morphtarget_pars_vertex>
#include <skinning_pars_vertex>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>
varying vec2 vHighPrecisionZW;
void main() {
	#include <uv_vertex>
	#include <batching_vertex>
	#include <skinbase_vertex>
	#include <morphinstance_vertex>
	#ifdef USE_DISPLACEMENTMAP
		#include <beginnormal_vertex>
		#include <morphnormal_vertex>
		#include <skinnormal_vertex>
	#endif
	#include <begin_vertex>
	#include <morphtarget_vertex>
	#include <skinning_vertex>
	#include <displacementmap_vertex>
	#include <project_vertex>
	#include <logdepthbuf_vertex>
	#include <clipping_planes_vertex>
	vHighPrecisionZW = gl_Position.zw;
}`,vx=`#if DEPTH_PACKING == 3200
	uniform float opacity;
#endif
#include <common>
#include <packing>
#include <uv_pars_fragment>
#include <map_pars_fragment>
#include <alphamap_pars_fragment>
#include <alphatest_pars_fragment>
#include <alphahash_pars_fragment>
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>
varying vec2 vHighPrecisionZW;
void main() {
	vec4 diffuseColor = vec4( 1.0 );
	#include <clipping_planes_fragment>
	#if DEPTH_PACKING == 3200
		diffuseColor.a = opacity;
	#endif
	#include <map_fragment>
	#include <alphamap_fragment>
	#include <alphatest_fragment>
	#include <alphahash_fragment>
	#include <logdepthbuf_fragment>
	#ifdef USE_REVERSED_DEPTH_BUFFER
		float fragCoordZ = vHighPrecisionZW[ 0 ] / vHighPrecisionZW[ 1 ];
	#else
		float fragCoordZ = 0.5 * vHighPrecisionZW[ 0 ] / vHighPrecisionZW[ 1 ] + 0.5;
	#endif
	#if DEPTH_PACKING == 3200
		gl_FragColor = vec4( vec3( 1.0 - fragCoordZ ), opacity );
	#elif DEPTH_PACKING == 3201
		gl_FragColor = packDepthToRGBA( fragCoordZ );
	#elif DEPTH_PACKING == 3202
		gl_FragColor = vec4( packDepthToRGB( fragCoordZ ), 1.0 );
	#elif DEPTH_PACKING == 3203
		gl_FragColor = vec4( packDepthToRG( fragCoordZ ), 0.0, 1.0 );
	#endif
}`,Sx=`#define DISTANCE
varying vec3 vWorldPosition;
#include <common>
#include <batching_pars_vertex>
#include <uv_pars_vertex>
#include <displacementmap_pars_vertex>
#include <morphtarget_pars_vertex>
#include <skinning_pars_vertex>
#include <clipping_planes_pars_vertex>
void main() {
	#include <uv_vertex>
	#include <batching_vertex>
	#include <skinbase_vertex>
	#include <morphinstance_vertex>
	#ifdef USE_DISPLACEMENTMAP
		#include <beginnormal_vertex>
		#include <morphnormal_vertex>
		#include <skinnormal_vertex>
	#endif
	#include <begin_vertex>
	#include <morphtarget_vertex>
	#include <skinning_vertex>
	#include <displacementmap_vertex>
	#include <project_vertex>
	#include <worldpos_vertex>
	#include <clipping_planes_vertex>
	vWorldPosition = worldPosition.xyz;
}`,Mx=`#define DISTANCE
uniform vec3 referencePosition;
uniform float nearDistance;
uniform float farDistance;
varying vec3 vWorldPosition;
#include <common>
#include <uv_pars_fragment>
#include <map_pars_fragment>
#include <alphamap_pars_fragment>
#include <alphatest_pars_fragment>
#include <alphahash_pars_fragment>
#include <clipping_planes_pars_fragment>
void main() {
	vec4 diffuseColor = vec4( 1.0 );
	#include <clipping_planes_fragment>
	#include <map_fragment>
	#include <alphamap_fragment>
	#include <alphatest_fragment>
	#include <alphahash_fragment>
	float dist = length( vWorldPosition - referencePosition );
	dist = ( dist - nearDistance ) / ( farDistance - nearDistance );
	dist = saturate( dist );
	gl_FragColor = vec4( dist, 0.0, 0.0, 1.0 );
}`,bx=`varying vec3 vWorldDirection;
#include <common>
void main() {
	vWorldDirection = transformDirection( position, modelMatrix );
	#include <begin_vertex>
	#include <project_vertex>
}`,wx=`uniform sampler2D tEquirect;
varying vec3 vWorldDirection;
#include <common>
void main() {
	vec3 direction = normalize( vWorldDirection );
	vec2 sampleUV = equirectUv( direction );
	gl_FragColor = texture2D( tEquirect, sampleUV );
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
}`,Ex=`uniform float scale;
attribute float lineDistance;
varying float vLineDistance;
#include <common>
#include <uv_pars_vertex>
#include <color_pars_vertex>
#include <fog_pars_vertex>
#include <morphtarget_pars_vertex>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>
void main() {
	vLineDistance = scale * lineDistance;
	#include <uv_vertex>
	#include <color_vertex>
	#include <morphinstance_vertex>
	#include <morphcolor_vertex>
	#include <begin_vertex>
	#include <morphtarget_vertex>
	#include <project_vertex>
	#include <logdepthbuf_vertex>
	#include <clipping_planes_vertex>
	#include <fog_vertex>
}`,Tx=`uniform vec3 diffuse;
uniform float opacity;
uniform float dashSize;
uniform float totalSize;
varying float vLineDistance;
#include <common>
#include <color_pars_fragment>
#include <uv_pars_fragment>
#include <map_pars_fragment>
#include <fog_pars_fragment>
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>
void main() {
	vec4 diffuseColor = vec4( diffuse, opacity );
	#include <clipping_planes_fragment>
	if ( mod( vLineDistance, totalSize ) > dashSize ) {
		discard;
	}
	vec3 outgoingLight = vec3( 0.0 );
	#include <logdepthbuf_fragment>
	#include <map_fragment>
	#include <color_fragment>
	outgoingLight = diffuseColor.rgb;
	#include <opaque_fragment>
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
	#include <fog_fragment>
	#include <premultiplied_alpha_fragment>
}`,Ax=`#include <common>
#include <batching_pars_vertex>
#include <uv_pars_vertex>
#include <envmap_pars_vertex>
#include <color_pars_vertex>
#include <fog_pars_vertex>
#include <morphtarget_pars_vertex>
#include <skinning_pars_vertex>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>
void main() {
	#include <uv_vertex>
	#include <color_vertex>
	#include <morphinstance_vertex>
	#include <morphcolor_vertex>
	#include <batching_vertex>
	#if defined ( USE_ENVMAP ) || defined ( USE_SKINNING )
		#include <beginnormal_vertex>
		#include <morphnormal_vertex>
		#include <skinbase_vertex>
		#include <skinnormal_vertex>
		#include <defaultnormal_vertex>
	#endif
	#include <begin_vertex>
	#include <morphtarget_vertex>
	#include <skinning_vertex>
	#include <project_vertex>
	#include <logdepthbuf_vertex>
	#include <clipping_planes_vertex>
	#include <worldpos_vertex>
	#include <envmap_vertex>
	#include <fog_vertex>
}`,Rx=`uniform vec3 diffuse;
uniform float opacity;
#ifndef FLAT_SHADED
	varying vec3 vNormal;
#endif
#include <common>
#include <dithering_pars_fragment>
#include <color_pars_fragment>
#include <uv_pars_fragment>
#include <map_pars_fragment>
#include <alphamap_pars_fragment>
#include <alphatest_pars_fragment>
#include <alphahash_pars_fragment>
#include <aomap_pars_fragment>
#include <lightmap_pars_fragment>
#include <envmap_common_pars_fragment>
#include <envmap_pars_fragment>
#include <fog_pars_fragment>
#include <specularmap_pars_fragment>
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>
void main() {
	vec4 diffuseColor = vec4( diffuse, opacity );
	#include <clipping_planes_fragment>
	#include <logdepthbuf_fragment>
	#include <map_fragment>
	#include <color_fragment>
	#include <alphamap_fragment>
	#include <alphatest_fragment>
	#include <alphahash_fragment>
	#include <specularmap_fragment>
	ReflectedLight reflectedLight = ReflectedLight( vec3( 0.0 ), vec3( 0.0 ), vec3( 0.0 ), vec3( 0.0 ) );
	#ifdef USE_LIGHTMAP
		vec4 lightMapTexel = texture2D( lightMap, vLightMapUv );
		reflectedLight.indirectDiffuse += lightMapTexel.rgb * lightMapIntensity * RECIPROCAL_PI;
	#else
		reflectedLight.indirectDiffuse += vec3( 1.0 );
	#endif
	#include <aomap_fragment>
	reflectedLight.indirectDiffuse *= diffuseColor.rgb;
	vec3 outgoingLight = reflectedLight.indirectDiffuse;
	#include <envmap_fragment>
	#include <opaque_fragment>
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
	#include <fog_fragment>
	#include <premultiplied_alpha_fragment>
	#include <dithering_fragment>
}`,Cx=`#define LAMBERT
varying vec3 vViewPosition;
#include <common>
#include <batching_pars_vertex>
#include <uv_pars_vertex>
#include <displacementmap_pars_vertex>
#include <envmap_pars_vertex>
#include <color_pars_vertex>
#include <fog_pars_vertex>
#include <normal_pars_vertex>
#include <morphtarget_pars_vertex>
#include <skinning_pars_vertex>
#include <shadowmap_pars_vertex>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>
void main() {
	#include <uv_vertex>
	#include <color_vertex>
	#include <morphinstance_vertex>
	#include <morphcolor_vertex>
	#include <batching_vertex>
	#include <beginnormal_vertex>
	#include <morphnormal_vertex>
	#include <skinbase_vertex>
	#include <skinnormal_vertex>
	#include <defaultnormal_vertex>
	#include <normal_vertex>
	#include <begin_vertex>
	#include <morphtarget_vertex>
	#include <skinning_vertex>
	#include <displacementmap_vertex>
	#include <project_vertex>
	#include <logdepthbuf_vertex>
	#include <clipping_planes_vertex>
	vViewPosition = - mvPosition.xyz;
	#include <worldpos_vertex>
	#include <envmap_vertex>
	#include <shadowmap_vertex>
	#include <fog_vertex>
}`,Px=`#define LAMBERT
uniform vec3 diffuse;
uniform vec3 emissive;
uniform float opacity;
#include <common>
#include <dithering_pars_fragment>
#include <color_pars_fragment>
#include <uv_pars_fragment>
#include <map_pars_fragment>
#include <alphamap_pars_fragment>
#include <alphatest_pars_fragment>
#include <alphahash_pars_fragment>
#include <aomap_pars_fragment>
#include <lightmap_pars_fragment>
#include <emissivemap_pars_fragment>
#include <envmap_common_pars_fragment>
#include <envmap_pars_fragment>
#include <envmap_physical_pars_fragment>
#include <fog_pars_fragment>
#include <bsdfs>
#include <lights_pars_begin>
#include <normal_pars_fragment>
#include <lights_lambert_pars_fragment>
#include <shadowmap_pars_fragment>
#include <bumpmap_pars_fragment>
#include <normalmap_pars_fragment>
#include <specularmap_pars_fragment>
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>
void main() {
	vec4 diffuseColor = vec4( diffuse, opacity );
	#include <clipping_planes_fragment>
	ReflectedLight reflectedLight = ReflectedLight( vec3( 0.0 ), vec3( 0.0 ), vec3( 0.0 ), vec3( 0.0 ) );
	vec3 totalEmissiveRadiance = emissive;
	#include <logdepthbuf_fragment>
	#include <map_fragment>
	#include <color_fragment>
	#include <alphamap_fragment>
	#include <alphatest_fragment>
	#include <alphahash_fragment>
	#include <specularmap_fragment>
	#include <normal_fragment_begin>
	#include <normal_fragment_maps>
	#include <emissivemap_fragment>
	#include <lights_lambert_fragment>
	#include <lights_fragment_begin>
	#include <lights_fragment_maps>
	#include <lights_fragment_end>
	#include <aomap_fragment>
	vec3 outgoingLight = reflectedLight.directDiffuse + reflectedLight.indirectDiffuse + totalEmissiveRadiance;
	#include <envmap_fragment>
	#include <opaque_fragment>
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
	#include <fog_fragment>
	#include <premultiplied_alpha_fragment>
	#include <dithering_fragment>
}`,Ix=`#define MATCAP
varying vec3 vViewPosition;
#include <common>
#include <batching_pars_vertex>
#include <uv_pars_vertex>
#include <color_pars_vertex>
#include <displacementmap_pars_vertex>
#include <fog_pars_vertex>
#include <normal_pars_vertex>
#include <morphtarget_pars_vertex>
#include <skinning_pars_vertex>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>
void main() {
	#include <uv_vertex>
	#include <color_vertex>
	#include <morphinstance_vertex>
	#include <morphcolor_vertex>
	#include <batching_vertex>
	#include <beginnormal_vertex>
	#include <morphnormal_vertex>
	#include <skinbase_vertex>
	#include <skinnormal_vertex>
	#include <defaultnormal_vertex>
	#include <normal_vertex>
	#include <begin_vertex>
	#include <morphtarget_vertex>
	#include <skinning_vertex>
	#include <displacementmap_vertex>
	#include <project_vertex>
	#include <logdepthbuf_vertex>
	#include <clipping_planes_vertex>
	#include <fog_vertex>
	vViewPosition = - mvPosition.xyz;
}`,Lx=`#define MATCAP
uniform vec3 diffuse;
uniform float opacity;
uniform sampler2D matcap;
varying vec3 vViewPosition;
#include <common>
#include <dithering_pars_fragment>
#include <color_pars_fragment>
#include <uv_pars_fragment>
#include <map_pars_fragment>
#include <alphamap_pars_fragment>
#include <alphatest_pars_fragment>
#include <alphahash_pars_fragment>
#include <fog_pars_fragment>
#include <normal_pars_fragment>
#include <bumpmap_pars_fragment>
#include <normalmap_pars_fragment>
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>
void main() {
	vec4 diffuseColor = vec4( diffuse, opacity );
	#include <clipping_planes_fragment>
	#include <logdepthbuf_fragment>
	#include <map_fragment>
	#include <color_fragment>
	#include <alphamap_fragment>
	#include <alphatest_fragment>
	#include <alphahash_fragment>
	#include <normal_fragment_begin>
	#include <normal_fragment_maps>
	vec3 viewDir = normalize( vViewPosition );
	vec3 x = normalize( vec3( viewDir.z, 0.0, - viewDir.x ) );
	vec3 y = cross( viewDir, x );
	vec2 uv = vec2( dot( x, normal ), dot( y, normal ) ) * 0.495 + 0.5;
	#ifdef USE_MATCAP
		vec4 matcapColor = texture2D( matcap, uv );
	#else
		vec4 matcapColor = vec4( vec3( mix( 0.2, 0.8, uv.y ) ), 1.0 );
	#endif
	vec3 outgoingLight = diffuseColor.rgb * matcapColor.rgb;
	#include <opaque_fragment>
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
	#include <fog_fragment>
	#include <premultiplied_alpha_fragment>
	#include <dithering_fragment>
}`,Dx=`#define NORMAL
#if defined( FLAT_SHADED ) || defined( USE_BUMPMAP ) || defined( USE_NORMALMAP_TANGENTSPACE )
	varying vec3 vViewPosition;
#endif
#include <common>
#include <batching_pars_vertex>
#include <uv_pars_vertex>
#include <displacementmap_pars_vertex>
#include <normal_pars_vertex>
#include <morphtarget_pars_vertex>
#include <skinning_pars_vertex>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>
void main() {
	#include <uv_vertex>
	#include <batching_vertex>
	#include <beginnormal_vertex>
	#include <morphinstance_vertex>
	#include <morphnormal_vertex>
	#include <skinbase_vertex>
	#include <skinnormal_vertex>
	#include <defaultnormal_vertex>
	#include <normal_vertex>
	#include <begin_vertex>
	#include <morphtarget_vertex>
	#include <skinning_vertex>
	#include <displacementmap_vertex>
	#include <project_vertex>
	#include <logdepthbuf_vertex>
	#include <clipping_planes_vertex>
#if defined( FLAT_SHADED ) || defined( USE_BUMPMAP ) || defined( USE_NORMALMAP_TANGENTSPACE )
	vViewPosition = - mvPosition.xyz;
#endif
}`,Nx=`#define NORMAL
uniform float opacity;
#if defined( FLAT_SHADED ) || defined( USE_BUMPMAP ) || defined( USE_NORMALMAP_TANGENTSPACE )
	varying vec3 vViewPosition;
#endif
#include <uv_pars_fragment>
#include <normal_pars_fragment>
#include <bumpmap_pars_fragment>
#include <normalmap_pars_fragment>
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>
void main() {
	vec4 diffuseColor = vec4( 0.0, 0.0, 0.0, opacity );
	#include <clipping_planes_fragment>
	#include <logdepthbuf_fragment>
	#include <normal_fragment_begin>
	#include <normal_fragment_maps>
	gl_FragColor = vec4( normalize( normal ) * 0.5 + 0.5, diffuseColor.a );
	#ifdef OPAQUE
		gl_FragColor.a = 1.0;
	#endif
}`,Ux=`#define PHONG
varying vec3 vViewPosition;
#include <common>
#include <batching_pars_vertex>
#include <uv_pars_vertex>
#include <displacementmap_pars_vertex>
#include <envmap_pars_vertex>
#include <color_pars_vertex>
#include <fog_pars_vertex>
#include <normal_pars_vertex>
#include <morphtarget_pars_vertex>
#include <skinning_pars_vertex>
#include <shadowmap_pars_vertex>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>
void main() {
	#include <uv_vertex>
	#include <color_vertex>
	#include <morphcolor_vertex>
	#include <batching_vertex>
	#include <beginnormal_vertex>
	#include <morphinstance_vertex>
	#include <morphnormal_vertex>
	#include <skinbase_vertex>
	#include <skinnormal_vertex>
	#include <defaultnormal_vertex>
	#include <normal_vertex>
	#include <begin_vertex>
	#include <morphtarget_vertex>
	#include <skinning_vertex>
	#include <displacementmap_vertex>
	#include <project_vertex>
	#include <logdepthbuf_vertex>
	#include <clipping_planes_vertex>
	vViewPosition = - mvPosition.xyz;
	#include <worldpos_vertex>
	#include <envmap_vertex>
	#include <shadowmap_vertex>
	#include <fog_vertex>
}`,Fx=`#define PHONG
uniform vec3 diffuse;
uniform vec3 emissive;
uniform vec3 specular;
uniform float shininess;
uniform float opacity;
#include <common>
#include <dithering_pars_fragment>
#include <color_pars_fragment>
#include <uv_pars_fragment>
#include <map_pars_fragment>
#include <alphamap_pars_fragment>
#include <alphatest_pars_fragment>
#include <alphahash_pars_fragment>
#include <aomap_pars_fragment>
#include <lightmap_pars_fragment>
#include <emissivemap_pars_fragment>
#include <envmap_common_pars_fragment>
#include <envmap_pars_fragment>
#include <envmap_physical_pars_fragment>
#include <fog_pars_fragment>
#include <bsdfs>
#include <lights_pars_begin>
#include <normal_pars_fragment>
#include <lights_phong_pars_fragment>
#include <shadowmap_pars_fragment>
#include <bumpmap_pars_fragment>
#include <normalmap_pars_fragment>
#include <specularmap_pars_fragment>
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>
void main() {
	vec4 diffuseColor = vec4( diffuse, opacity );
	#include <clipping_planes_fragment>
	ReflectedLight reflectedLight = ReflectedLight( vec3( 0.0 ), vec3( 0.0 ), vec3( 0.0 ), vec3( 0.0 ) );
	vec3 totalEmissiveRadiance = emissive;
	#include <logdepthbuf_fragment>
	#include <map_fragment>
	#include <color_fragment>
	#include <alphamap_fragment>
	#include <alphatest_fragment>
	#include <alphahash_fragment>
	#include <specularmap_fragment>
	#include <normal_fragment_begin>
	#include <normal_fragment_maps>
	#include <emissivemap_fragment>
	#include <lights_phong_fragment>
	#include <lights_fragment_begin>
	#include <lights_fragment_maps>
	#include <lights_fragment_end>
	#include <aomap_fragment>
	vec3 outgoingLight = reflectedLight.directDiffuse + reflectedLight.indirectDiffuse + reflectedLight.directSpecular + reflectedLight.indirectSpecular + totalEmissiveRadiance;
	#include <envmap_fragment>
	#include <opaque_fragment>
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
	#include <fog_fragment>
	#include <premultiplied_alpha_fragment>
	#include <dithering_fragment>
}`,Ox=`#define STANDARD
varying vec3 vViewPosition;
#ifdef USE_TRANSMISSION
	varying vec3 vWorldPosition;
#endif
#include <common>
#include <batching_pars_vertex>
#include <uv_pars_vertex>
#include <displacementmap_pars_vertex>
#include <color_pars_vertex>
#include <fog_pars_vertex>
#include <normal_pars_vertex>
#include <morphtarget_pars_vertex>
#include <skinning_pars_vertex>
#include <shadowmap_pars_vertex>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>
void main() {
	#include <uv_vertex>
	#include <color_vertex>
	#include <morphinstance_vertex>
	#include <morphcolor_vertex>
	#include <batching_vertex>
	#include <beginnormal_vertex>
	#include <morphnormal_vertex>
	#include <skinbase_vertex>
	#include <skinnormal_vertex>
	#include <defaultnormal_vertex>
	#include <normal_vertex>
	#include <begin_vertex>
	#include <morphtarget_vertex>
	#include <skinning_vertex>
	#include <displacementmap_vertex>
	#include <project_vertex>
	#include <logdepthbuf_vertex>
	#include <clipping_planes_vertex>
	vViewPosition = - mvPosition.xyz;
	#include <worldpos_vertex>
	#include <shadowmap_vertex>
	#include <fog_vertex>
#ifdef USE_TRANSMISSION
	vWorldPosition = worldPosition.xyz;
#endif
}`,Bx=`#define STANDARD
#ifdef PHYSICAL
	#define IOR
	#define USE_SPECULAR
#endif
uniform vec3 diffuse;
uniform vec3 emissive;
uniform float roughness;
uniform float metalness;
uniform float opacity;
#ifdef IOR
	uniform float ior;
#endif
#ifdef USE_SPECULAR
	uniform float specularIntensity;
	uniform vec3 specularColor;
	#ifdef USE_SPECULAR_COLORMAP
		uniform sampler2D specularColorMap;
	#endif
	#ifdef USE_SPECULAR_INTENSITYMAP
		uniform sampler2D specularIntensityMap;
	#endif
#endif
#ifdef USE_CLEARCOAT
	uniform float clearcoat;
	uniform float clearcoatRoughness;
#endif
#ifdef USE_DIFFUSE_ROUGHNESS
	uniform float diffuseRoughness;
	#ifdef USE_DIFFUSE_ROUGHNESSMAP
		uniform sampler2D diffuseRoughnessMap;
	#endif
#endif
#ifdef USE_DISPERSION
	uniform float dispersion;
#endif
#ifdef USE_RETROREFLECTION
	uniform float retroreflectivity;
#endif
#ifdef USE_IRIDESCENCE
	uniform float iridescence;
	uniform float iridescenceIOR;
	uniform float iridescenceThicknessMinimum;
	uniform float iridescenceThicknessMaximum;
#endif
#ifdef USE_SHEEN
	uniform vec3 sheenColor;
	uniform float sheenRoughness;
	#ifdef USE_SHEEN_COLORMAP
		uniform sampler2D sheenColorMap;
	#endif
	#ifdef USE_SHEEN_ROUGHNESSMAP
		uniform sampler2D sheenRoughnessMap;
	#endif
#endif
#ifdef USE_ANISOTROPY
	uniform vec2 anisotropyVector;
	#ifdef USE_ANISOTROPYMAP
		uniform sampler2D anisotropyMap;
	#endif
#endif
varying vec3 vViewPosition;
#include <common>
#include <dithering_pars_fragment>
#include <color_pars_fragment>
#include <uv_pars_fragment>
#include <map_pars_fragment>
#include <alphamap_pars_fragment>
#include <alphatest_pars_fragment>
#include <alphahash_pars_fragment>
#include <aomap_pars_fragment>
#include <lightmap_pars_fragment>
#include <emissivemap_pars_fragment>
#include <iridescence_fragment>
#include <envmap_common_pars_fragment>
#include <envmap_physical_pars_fragment>
#include <fog_pars_fragment>
#include <lights_pars_begin>
#include <normal_pars_fragment>
#include <lights_physical_pars_fragment>
#include <transmission_pars_fragment>
#include <shadowmap_pars_fragment>
#include <bumpmap_pars_fragment>
#include <normalmap_pars_fragment>
#include <clearcoat_pars_fragment>
#include <iridescence_pars_fragment>
#include <roughnessmap_pars_fragment>
#include <metalnessmap_pars_fragment>
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>
void main() {
	vec4 diffuseColor = vec4( diffuse, opacity );
	#include <clipping_planes_fragment>
	ReflectedLight reflectedLight = ReflectedLight( vec3( 0.0 ), vec3( 0.0 ), vec3( 0.0 ), vec3( 0.0 ) );
	vec3 totalEmissiveRadiance = emissive;
	#include <logdepthbuf_fragment>
	#include <map_fragment>
	#include <color_fragment>
	#include <alphamap_fragment>
	#include <alphatest_fragment>
	#include <alphahash_fragment>
	#include <roughnessmap_fragment>
	#include <metalnessmap_fragment>
	#include <normal_fragment_begin>
	#include <normal_fragment_maps>
	#include <clearcoat_normal_fragment_begin>
	#include <clearcoat_normal_fragment_maps>
	#include <emissivemap_fragment>
	#include <lights_physical_fragment>
	#include <lights_fragment_begin>
	#include <lights_fragment_maps>
	#include <lights_fragment_end>
	#include <aomap_fragment>
	vec3 totalDiffuse = reflectedLight.directDiffuse + reflectedLight.indirectDiffuse;
	vec3 totalSpecular = reflectedLight.directSpecular + reflectedLight.indirectSpecular;
	#include <transmission_fragment>
	vec3 outgoingLight = totalDiffuse + totalSpecular + totalEmissiveRadiance;
	#ifdef USE_SHEEN
 
		outgoingLight = outgoingLight + sheenSpecularDirect + sheenSpecularIndirect;
 
 	#endif
	#ifdef USE_CLEARCOAT
		float dotNVcc = saturate( dot( geometryClearcoatNormal, geometryViewDir ) );
		vec3 Fcc = F_Schlick( material.clearcoatF0, material.clearcoatF90, dotNVcc );
		outgoingLight = outgoingLight * ( 1.0 - material.clearcoat * Fcc ) + ( clearcoatSpecularDirect + clearcoatSpecularIndirect ) * material.clearcoat;
	#endif
	#include <opaque_fragment>
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
	#include <fog_fragment>
	#include <premultiplied_alpha_fragment>
	#include <dithering_fragment>
}`,kx=`#define TOON
varying vec3 vViewPosition;
#include <common>
#include <batching_pars_vertex>
#include <uv_pars_vertex>
#include <displacementmap_pars_vertex>
#include <color_pars_vertex>
#include <fog_pars_vertex>
#include <normal_pars_vertex>
#include <morphtarget_pars_vertex>
#include <skinning_pars_vertex>
#include <shadowmap_pars_vertex>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>
void main() {
	#include <uv_vertex>
	#include <color_vertex>
	#include <morphinstance_vertex>
	#include <morphcolor_vertex>
	#include <batching_vertex>
	#include <beginnormal_vertex>
	#include <morphnormal_vertex>
	#include <skinbase_vertex>
	#include <skinnormal_vertex>
	#include <defaultnormal_vertex>
	#include <normal_vertex>
	#include <begin_vertex>
	#include <morphtarget_vertex>
	#include <skinning_vertex>
	#include <displacementmap_vertex>
	#include <project_vertex>
	#include <logdepthbuf_vertex>
	#include <clipping_planes_vertex>
	vViewPosition = - mvPosition.xyz;
	#include <worldpos_vertex>
	#include <shadowmap_vertex>
	#include <fog_vertex>
}`,zx=`#define TOON
uniform vec3 diffuse;
uniform vec3 emissive;
uniform float opacity;
#include <common>
#include <dithering_pars_fragment>
#include <color_pars_fragment>
#include <uv_pars_fragment>
#include <map_pars_fragment>
#include <alphamap_pars_fragment>
#include <alphatest_pars_fragment>
#include <alphahash_pars_fragment>
#include <aomap_pars_fragment>
#include <lightmap_pars_fragment>
#include <emissivemap_pars_fragment>
#include <gradientmap_pars_fragment>
#include <fog_pars_fragment>
#include <bsdfs>
#include <lights_pars_begin>
#include <normal_pars_fragment>
#include <lights_toon_pars_fragment>
#include <shadowmap_pars_fragment>
#include <bumpmap_pars_fragment>
#include <normalmap_pars_fragment>
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>
void main() {
	vec4 diffuseColor = vec4( diffuse, opacity );
	#include <clipping_planes_fragment>
	ReflectedLight reflectedLight = ReflectedLight( vec3( 0.0 ), vec3( 0.0 ), vec3( 0.0 ), vec3( 0.0 ) );
	vec3 totalEmissiveRadiance = emissive;
	#include <logdepthbuf_fragment>
	#include <map_fragment>
	#include <color_fragment>
	#include <alphamap_fragment>
	#include <alphatest_fragment>
	#include <alphahash_fragment>
	#include <normal_fragment_begin>
	#include <normal_fragment_maps>
	#include <emissivemap_fragment>
	#include <lights_toon_fragment>
	#include <lights_fragment_begin>
	#include <lights_fragment_maps>
	#include <lights_fragment_end>
	#include <aomap_fragment>
	vec3 outgoingLight = reflectedLight.directDiffuse + reflectedLight.indirectDiffuse + totalEmissiveRadiance;
	#include <opaque_fragment>
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
	#include <fog_fragment>
	#include <premultiplied_alpha_fragment>
	#include <dithering_fragment>
}`,Vx=`uniform float size;
uniform float scale;
#include <common>
#include <color_pars_vertex>
#include <fog_pars_vertex>
#include <morphtarget_pars_vertex>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>
#ifdef USE_POINTS_UV
	varying vec2 vUv;
	uniform mat3 uvTransform;
#endif
void main() {
	#ifdef USE_POINTS_UV
		vUv = ( uvTransform * vec3( uv, 1 ) ).xy;
	#endif
	#include <color_vertex>
	#include <morphinstance_vertex>
	#include <morphcolor_vertex>
	#include <begin_vertex>
	#include <morphtarget_vertex>
	#include <project_vertex>
	gl_PointSize = size;
	#ifdef USE_SIZEATTENUATION
		bool isPerspective = isPerspectiveMatrix( projectionMatrix );
		if ( isPerspective ) gl_PointSize *= ( scale / - mvPosition.z );
	#endif
	#include <logdepthbuf_vertex>
	#include <clipping_planes_vertex>
	#include <worldpos_vertex>
	#include <fog_vertex>
}`,Gx=`uniform vec3 diffuse;
uniform float opacity;
#include <common>
#include <color_pars_fragment>
#include <map_particle_pars_fragment>
#include <alphatest_pars_fragment>
#include <alphahash_pars_fragment>
#include <fog_pars_fragment>
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>
void main() {
	vec4 diffuseColor = vec4( diffuse, opacity );
	#include <clipping_planes_fragment>
	vec3 outgoingLight = vec3( 0.0 );
	#include <logdepthbuf_fragment>
	#include <map_particle_fragment>
	#include <color_fragment>
	#include <alphatest_fragment>
	#include <alphahash_fragment>
	outgoingLight = diffuseColor.rgb;
	#include <opaque_fragment>
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
	#include <fog_fragment>
	#include <premultiplied_alpha_fragment>
}`,Hx=`#include <common>
#include <batching_pars_vertex>
#include <fog_pars_vertex>
#include <morphtarget_pars_vertex>
#include <skinning_pars_vertex>
#include <logdepthbuf_pars_vertex>
#include <shadowmap_pars_vertex>
void main() {
	#include <batching_vertex>
	#include <beginnormal_vertex>
	#include <morphinstance_vertex>
	#include <morphnormal_vertex>
	#include <skinbase_vertex>
	#include <skinnormal_vertex>
	#include <defaultnormal_vertex>
	#include <begin_vertex>
	#include <morphtarget_vertex>
	#include <skinning_vertex>
	#include <project_vertex>
	#include <logdepthbuf_vertex>
	#include <worldpos_vertex>
	#include <shadowmap_vertex>
	#include <fog_vertex>
}`,Wx=`uniform vec3 color;
uniform float opacity;
#include <common>
#include <fog_pars_fragment>
#include <bsdfs>
#include <lights_pars_begin>
#include <logdepthbuf_pars_fragment>
#include <shadowmap_pars_fragment>
#include <shadowmask_pars_fragment>
void main() {
	#include <logdepthbuf_fragment>
	gl_FragColor = vec4( color, opacity * ( 1.0 - getShadowMask() ) );
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
	#include <fog_fragment>
	#include <premultiplied_alpha_fragment>
}`,Xx=`uniform float rotation;
uniform vec2 center;
#include <common>
#include <uv_pars_vertex>
#include <fog_pars_vertex>
#include <logdepthbuf_pars_vertex>
#include <clipping_planes_pars_vertex>
void main() {
	#include <uv_vertex>
	vec4 mvPosition = modelViewMatrix[ 3 ];
	vec2 scale = vec2( length( modelMatrix[ 0 ].xyz ), length( modelMatrix[ 1 ].xyz ) );
	#ifndef USE_SIZEATTENUATION
		bool isPerspective = isPerspectiveMatrix( projectionMatrix );
		if ( isPerspective ) scale *= - mvPosition.z;
	#endif
	vec2 alignedPosition = ( position.xy - ( center - vec2( 0.5 ) ) ) * scale;
	vec2 rotatedPosition;
	rotatedPosition.x = cos( rotation ) * alignedPosition.x - sin( rotation ) * alignedPosition.y;
	rotatedPosition.y = sin( rotation ) * alignedPosition.x + cos( rotation ) * alignedPosition.y;
	mvPosition.xy += rotatedPosition;
	gl_Position = projectionMatrix * mvPosition;
	#include <logdepthbuf_vertex>
	#include <clipping_planes_vertex>
	#include <fog_vertex>
}`,qx=`uniform vec3 diffuse;
uniform float opacity;
#include <common>
#include <uv_pars_fragment>
#include <map_pars_fragment>
#include <alphamap_pars_fragment>
#include <alphatest_pars_fragment>
#include <alphahash_pars_fragment>
#include <fog_pars_fragment>
#include <logdepthbuf_pars_fragment>
#include <clipping_planes_pars_fragment>
void main() {
	vec4 diffuseColor = vec4( diffuse, opacity );
	#include <clipping_planes_fragment>
	vec3 outgoingLight = vec3( 0.0 );
	#include <logdepthbuf_fragment>
	#include <map_fragment>
	#include <alphamap_fragment>
	#include <alphatest_fragment>
	#include <alphahash_fragment>
	outgoingLight = diffuseColor.rgb;
	#include <opaque_fragment>
	#include <tonemapping_fragment>
	#include <colorspace_fragment>
	#include <fog_fragment>
}`,ce={alphahash_fragment:p0,alphahash_pars_fragment:m0,alphamap_fragment:g0,alphamap_pars_fragment:_0,alphatest_fragment:x0,alphatest_pars_fragment:y0,aomap_fragment:v0,aomap_pars_fragment:S0,batching_pars_vertex:M0,batching_vertex:b0,begin_vertex:w0,beginnormal_vertex:E0,bsdfs:T0,iridescence_fragment:A0,bumpmap_pars_fragment:R0,clipping_planes_fragment:C0,clipping_planes_pars_fragment:P0,clipping_planes_pars_vertex:I0,clipping_planes_vertex:L0,color_fragment:D0,color_pars_fragment:N0,color_pars_vertex:U0,color_vertex:F0,common:O0,defaultnormal_vertex:B0,displacementmap_pars_vertex:k0,displacementmap_vertex:z0,emissivemap_fragment:V0,emissivemap_pars_fragment:G0,colorspace_fragment:H0,colorspace_pars_fragment:W0,envmap_fragment:X0,envmap_common_pars_fragment:q0,envmap_pars_fragment:$0,envmap_pars_vertex:Y0,envmap_physical_pars_fragment:r_,envmap_vertex:Z0,fog_vertex:J0,fog_pars_vertex:K0,fog_fragment:j0,fog_pars_fragment:Q0,gradientmap_pars_fragment:t_,lightmap_pars_fragment:e_,lights_lambert_fragment:n_,lights_lambert_pars_fragment:i_,lights_pars_begin:s_,lights_toon_fragment:a_,lights_toon_pars_fragment:o_,lights_phong_fragment:l_,lights_phong_pars_fragment:c_,lights_physical_fragment:h_,lights_physical_pars_fragment:u_,lights_fragment_begin:d_,lights_fragment_maps:f_,lights_fragment_end:p_,lightprobes_pars_fragment:m_,logdepthbuf_fragment:g_,logdepthbuf_pars_fragment:__,logdepthbuf_pars_vertex:x_,logdepthbuf_vertex:y_,map_fragment:v_,map_pars_fragment:S_,map_particle_fragment:M_,map_particle_pars_fragment:b_,metalnessmap_fragment:w_,metalnessmap_pars_fragment:E_,morphinstance_vertex:T_,morphcolor_vertex:A_,morphnormal_vertex:R_,morphtarget_pars_vertex:C_,morphtarget_vertex:P_,normal_fragment_begin:I_,normal_fragment_maps:L_,normal_pars_fragment:D_,normal_pars_vertex:N_,normal_vertex:U_,normalmap_pars_fragment:F_,clearcoat_normal_fragment_begin:O_,clearcoat_normal_fragment_maps:B_,clearcoat_pars_fragment:k_,iridescence_pars_fragment:z_,opaque_fragment:V_,packing:G_,premultiplied_alpha_fragment:H_,project_vertex:W_,dithering_fragment:X_,dithering_pars_fragment:q_,roughnessmap_fragment:$_,roughnessmap_pars_fragment:Y_,shadowmap_pars_fragment:Z_,shadowmap_pars_vertex:J_,shadowmap_vertex:K_,shadowmask_pars_fragment:j_,skinbase_vertex:Q_,skinning_pars_vertex:tx,skinning_vertex:ex,skinnormal_vertex:nx,specularmap_fragment:ix,specularmap_pars_fragment:sx,tonemapping_fragment:rx,tonemapping_pars_fragment:ax,transmission_fragment:ox,transmission_pars_fragment:lx,uv_pars_fragment:cx,uv_pars_vertex:hx,uv_vertex:ux,worldpos_vertex:dx,background_vert:fx,background_frag:px,backgroundCube_vert:mx,backgroundCube_frag:gx,cube_vert:_x,cube_frag:xx,depth_vert:yx,depth_frag:vx,distance_vert:Sx,distance_frag:Mx,equirect_vert:bx,equirect_frag:wx,linedashed_vert:Ex,linedashed_frag:Tx,meshbasic_vert:Ax,meshbasic_frag:Rx,meshlambert_vert:Cx,meshlambert_frag:Px,meshmatcap_vert:Ix,meshmatcap_frag:Lx,meshnormal_vert:Dx,meshnormal_frag:Nx,meshphong_vert:Ux,meshphong_frag:Fx,meshphysical_vert:Ox,meshphysical_frag:Bx,meshtoon_vert:kx,meshtoon_frag:zx,points_vert:Vx,points_frag:Gx,shadow_vert:Hx,shadow_frag:Wx,sprite_vert:Xx,sprite_frag:qx},Lt={common:{diffuse:{value:new ye(16777215)},opacity:{value:1},map:{value:null},mapTransform:{value:new Qt},alphaMap:{value:null},alphaMapTransform:{value:new Qt},alphaTest:{value:0}},specularmap:{specularMap:{value:null},specularMapTransform:{value:new Qt}},envmap:{envMap:{value:null},envMapRotation:{value:new Qt},reflectivity:{value:1},ior:{value:1.5},refractionRatio:{value:.98},dfgLUT:{value:null}},aomap:{aoMap:{value:null},aoMapIntensity:{value:1},aoMapTransform:{value:new Qt}},lightmap:{lightMap:{value:null},lightMapIntensity:{value:1},lightMapTransform:{value:new Qt}},bumpmap:{bumpMap:{value:null},bumpMapTransform:{value:new Qt},bumpScale:{value:1}},normalmap:{normalMap:{value:null},normalMapTransform:{value:new Qt},normalScale:{value:new re(1,1)}},displacementmap:{displacementMap:{value:null},displacementMapTransform:{value:new Qt},displacementScale:{value:1},displacementBias:{value:0}},emissivemap:{emissiveMap:{value:null},emissiveMapTransform:{value:new Qt}},metalnessmap:{metalnessMap:{value:null},metalnessMapTransform:{value:new Qt}},roughnessmap:{roughnessMap:{value:null},roughnessMapTransform:{value:new Qt}},gradientmap:{gradientMap:{value:null}},fog:{fogDensity:{value:25e-5},fogNear:{value:1},fogFar:{value:2e3},fogColor:{value:new ye(16777215)}},lights:{ambientLightColor:{value:[]},lightProbe:{value:[]},sunLights:{value:[],properties:{direction:{},color:{}}},sunLightShadows:{value:[],properties:{shadowIntensity:1,shadowBias:{},shadowNormalBias:{},shadowRadius:{},shadowMapSize:{}}},sunShadowMatrix:{value:[]},sunShadowCascade:{value:[]},directionalLights:{value:[],properties:{direction:{},color:{}}},directionalLightShadows:{value:[],properties:{shadowIntensity:1,shadowBias:{},shadowNormalBias:{},shadowRadius:{},shadowMapSize:{}}},directionalShadowMatrix:{value:[]},spotLights:{value:[],properties:{color:{},position:{},direction:{},distance:{},coneCos:{},penumbraCos:{},decay:{}}},spotLightShadows:{value:[],properties:{shadowIntensity:1,shadowBias:{},shadowNormalBias:{},shadowRadius:{},shadowMapSize:{}}},spotLightMap:{value:[]},spotLightMatrix:{value:[]},pointLights:{value:[],properties:{color:{},position:{},decay:{},distance:{}}},pointLightShadows:{value:[],properties:{shadowIntensity:1,shadowBias:{},shadowNormalBias:{},shadowRadius:{},shadowMapSize:{},shadowCameraNear:{},shadowCameraFar:{}}},pointShadowMatrix:{value:[]},hemisphereLights:{value:[],properties:{direction:{},skyColor:{},groundColor:{}}},rectAreaLights:{value:[],properties:{color:{},position:{},width:{},height:{}}},ltc_1:{value:null},ltc_2:{value:null},probesSH:{value:[]},probesMin:{value:[]},probesMax:{value:[]},probesResolution:{value:[]}},points:{diffuse:{value:new ye(16777215)},opacity:{value:1},size:{value:1},scale:{value:1},map:{value:null},alphaMap:{value:null},alphaMapTransform:{value:new Qt},alphaTest:{value:0},uvTransform:{value:new Qt}},sprite:{diffuse:{value:new ye(16777215)},opacity:{value:1},center:{value:new re(.5,.5)},rotation:{value:0},map:{value:null},mapTransform:{value:new Qt},alphaMap:{value:null},alphaMapTransform:{value:new Qt},alphaTest:{value:0}}},Gi={basic:{uniforms:Rn([Lt.common,Lt.specularmap,Lt.envmap,Lt.aomap,Lt.lightmap,Lt.fog]),vertexShader:ce.meshbasic_vert,fragmentShader:ce.meshbasic_frag},lambert:{uniforms:Rn([Lt.common,Lt.specularmap,Lt.envmap,Lt.aomap,Lt.lightmap,Lt.emissivemap,Lt.bumpmap,Lt.normalmap,Lt.displacementmap,Lt.fog,Lt.lights,{emissive:{value:new ye(0)},envMapIntensity:{value:1}}]),vertexShader:ce.meshlambert_vert,fragmentShader:ce.meshlambert_frag},phong:{uniforms:Rn([Lt.common,Lt.specularmap,Lt.envmap,Lt.aomap,Lt.lightmap,Lt.emissivemap,Lt.bumpmap,Lt.normalmap,Lt.displacementmap,Lt.fog,Lt.lights,{emissive:{value:new ye(0)},specular:{value:new ye(1118481)},shininess:{value:30},envMapIntensity:{value:1}}]),vertexShader:ce.meshphong_vert,fragmentShader:ce.meshphong_frag},standard:{uniforms:Rn([Lt.common,Lt.envmap,Lt.aomap,Lt.lightmap,Lt.emissivemap,Lt.bumpmap,Lt.normalmap,Lt.displacementmap,Lt.roughnessmap,Lt.metalnessmap,Lt.fog,Lt.lights,{emissive:{value:new ye(0)},roughness:{value:1},metalness:{value:0},envMapIntensity:{value:1}}]),vertexShader:ce.meshphysical_vert,fragmentShader:ce.meshphysical_frag},toon:{uniforms:Rn([Lt.common,Lt.aomap,Lt.lightmap,Lt.emissivemap,Lt.bumpmap,Lt.normalmap,Lt.displacementmap,Lt.gradientmap,Lt.fog,Lt.lights,{emissive:{value:new ye(0)}}]),vertexShader:ce.meshtoon_vert,fragmentShader:ce.meshtoon_frag},matcap:{uniforms:Rn([Lt.common,Lt.bumpmap,Lt.normalmap,Lt.displacementmap,Lt.fog,{matcap:{value:null}}]),vertexShader:ce.meshmatcap_vert,fragmentShader:ce.meshmatcap_frag},points:{uniforms:Rn([Lt.points,Lt.fog]),vertexShader:ce.points_vert,fragmentShader:ce.points_frag},dashed:{uniforms:Rn([Lt.common,Lt.fog,{scale:{value:1},dashSize:{value:1},totalSize:{value:2}}]),vertexShader:ce.linedashed_vert,fragmentShader:ce.linedashed_frag},depth:{uniforms:Rn([Lt.common,Lt.displacementmap]),vertexShader:ce.depth_vert,fragmentShader:ce.depth_frag},normal:{uniforms:Rn([Lt.common,Lt.bumpmap,Lt.normalmap,Lt.displacementmap,{opacity:{value:1}}]),vertexShader:ce.meshnormal_vert,fragmentShader:ce.meshnormal_frag},sprite:{uniforms:Rn([Lt.sprite,Lt.fog]),vertexShader:ce.sprite_vert,fragmentShader:ce.sprite_frag},background:{uniforms:{uvTransform:{value:new Qt},t2D:{value:null},backgroundIntensity:{value:1}},vertexShader:ce.background_vert,fragmentShader:ce.background_frag},backgroundCube:{uniforms:{envMap:{value:null},backgroundBlurriness:{value:0},backgroundIntensity:{value:1},backgroundRotation:{value:new Qt}},vertexShader:ce.backgroundCube_vert,fragmentShader:ce.backgroundCube_frag},cube:{uniforms:{tCube:{value:null},tFlip:{value:-1},opacity:{value:1}},vertexShader:ce.cube_vert,fragmentShader:ce.cube_frag},equirect:{uniforms:{tEquirect:{value:null}},vertexShader:ce.equirect_vert,fragmentShader:ce.equirect_frag},distance:{uniforms:Rn([Lt.common,Lt.displacementmap,{referencePosition:{value:new J},nearDistance:{value:1},farDistance:{value:1e3}}]),vertexShader:ce.distance_vert,fragmentShader:ce.distance_frag},shadow:{uniforms:Rn([Lt.lights,Lt.fog,{color:{value:new ye(0)},opacity:{value:1}}]),vertexShader:ce.shadow_vert,fragmentShader:ce.shadow_frag}};Gi.physical={uniforms:Rn([Gi.standard.uniforms,{clearcoat:{value:0},clearcoatMap:{value:null},clearcoatMapTransform:{value:new Qt},clearcoatNormalMap:{value:null},clearcoatNormalMapTransform:{value:new Qt},clearcoatNormalScale:{value:new re(1,1)},clearcoatRoughness:{value:0},clearcoatRoughnessMap:{value:null},clearcoatRoughnessMapTransform:{value:new Qt},diffuseRoughness:{value:0},diffuseRoughnessMap:{value:null},diffuseRoughnessMapTransform:{value:new Qt},dispersion:{value:0},retroreflectivity:{value:0},iridescence:{value:0},iridescenceMap:{value:null},iridescenceMapTransform:{value:new Qt},iridescenceIOR:{value:1.3},iridescenceThicknessMinimum:{value:100},iridescenceThicknessMaximum:{value:400},iridescenceThicknessMap:{value:null},iridescenceThicknessMapTransform:{value:new Qt},sheen:{value:0},sheenColor:{value:new ye(0)},sheenColorMap:{value:null},sheenColorMapTransform:{value:new Qt},sheenRoughness:{value:1},sheenRoughnessMap:{value:null},sheenRoughnessMapTransform:{value:new Qt},transmission:{value:0},transmissionMap:{value:null},transmissionMapTransform:{value:new Qt},transmissionSamplerSize:{value:new re},transmissionSamplerMap:{value:null},thickness:{value:0},thicknessMap:{value:null},thicknessMapTransform:{value:new Qt},attenuationDistance:{value:0},attenuationColor:{value:new ye(0)},specularColor:{value:new ye(1,1,1)},specularColorMap:{value:null},specularColorMapTransform:{value:new Qt},specularIntensity:{value:1},specularIntensityMap:{value:null},specularIntensityMapTransform:{value:new Qt},anisotropyVector:{value:new re},anisotropyMap:{value:null},anisotropyMapTransform:{value:new Qt}}]),vertexShader:ce.meshphysical_vert,fragmentShader:ce.meshphysical_frag};var Wl={r:0,b:0,g:0},$x=new Xe,ip=new Qt;ip.set(-1,0,0,0,1,0,0,0,1);function Yx(i,t,e,n,s,r){let a=new ye(0),o=s===!0?0:1,l,c,h=null,d=0,u=null;function f(M){let C=M.isScene===!0?M.background:null;if(C&&C.isTexture){let b=M.backgroundBlurriness>0;C=t.get(C,b)}return C}function x(M){let C=!1,b=f(M);b===null?m(a,o):b&&b.isColor&&(m(b,1),C=!0);let I=i.xr.getEnvironmentBlendMode();I==="additive"?e.buffers.color.setClear(0,0,0,1,r):I==="alpha-blend"&&e.buffers.color.setClear(0,0,0,0,r),(i.autoClear||C)&&(e.buffers.depth.setTest(!0),e.buffers.depth.setMask(!0),e.buffers.color.setMask(!0),i.clear(i.autoClearColor,i.autoClearDepth,i.autoClearStencil))}function w(M,C){let b=f(C);b&&b.isCubeTexture?(c===void 0&&(c=new Oi(new Dr(1,1,1),new Bi({name:"BackgroundCubeMaterial",uniforms:Zs(Gi.backgroundCube.uniforms),vertexShader:Gi.backgroundCube.vertexShader,fragmentShader:Gi.backgroundCube.fragmentShader,side:Fn,depthTest:!1,depthWrite:!1,fog:!1,allowOverride:!1})),c.geometry.deleteAttribute("normal"),c.geometry.deleteAttribute("uv"),c.onBeforeRender=function(I,T,_){this.matrixWorld.copyPosition(_.matrixWorld)},Object.defineProperty(c.material,"envMap",{get:function(){return this.uniforms.envMap.value}}),n.update(c)),c.material.uniforms.envMap.value=b,c.material.uniforms.backgroundBlurriness.value=C.backgroundBlurriness,c.material.uniforms.backgroundIntensity.value=C.backgroundIntensity,c.material.uniforms.backgroundRotation.value.setFromMatrix4($x.makeRotationFromEuler(C.backgroundRotation)).transpose(),b.isRenderTargetTexture===!1&&c.material.uniforms.backgroundRotation.value.premultiply(ip),c.material.toneMapped=ge.getTransfer(b.colorSpace)!==Ee,(h!==b||d!==b.version||u!==i.toneMapping)&&(c.material.needsUpdate=!0,h=b,d=b.version,u=i.toneMapping),c.layers.enableAll(),M.unshift(c,c.geometry,c.material,0,0,null)):b&&b.isTexture&&(l===void 0&&(l=new Oi(new Ra(2,2),new Bi({name:"BackgroundMaterial",uniforms:Zs(Gi.background.uniforms),vertexShader:Gi.background.vertexShader,fragmentShader:Gi.background.fragmentShader,side:Cs,depthTest:!1,depthWrite:!1,fog:!1,allowOverride:!1})),l.geometry.deleteAttribute("normal"),Object.defineProperty(l.material,"map",{get:function(){return this.uniforms.t2D.value}}),n.update(l)),l.material.uniforms.t2D.value=b,l.material.uniforms.backgroundIntensity.value=C.backgroundIntensity,l.material.toneMapped=ge.getTransfer(b.colorSpace)!==Ee,b.matrixAutoUpdate===!0&&b.updateMatrix(),l.material.uniforms.uvTransform.value.copy(b.matrix),(h!==b||d!==b.version||u!==i.toneMapping)&&(l.material.needsUpdate=!0,h=b,d=b.version,u=i.toneMapping),l.layers.enableAll(),M.unshift(l,l.geometry,l.material,0,0,null))}function m(M,C){M.getRGB(Wl,Bh(i)),e.buffers.color.setClear(Wl.r,Wl.g,Wl.b,C,r)}function p(){c!==void 0&&(c.geometry.dispose(),c.material.dispose(),c=void 0),l!==void 0&&(l.geometry.dispose(),l.material.dispose(),l=void 0)}return{getClearColor:function(){return a},setClearColor:function(M,C=1){a.set(M),o=C,m(a,o)},getClearAlpha:function(){return o},setClearAlpha:function(M){o=M,m(a,o)},render:x,addToRenderList:w,dispose:p}}function Zx(i,t){let e=i.getParameter(i.MAX_VERTEX_ATTRIBS),n={},s=u(null),r=s,a=!1;function o(L,G,H,D,V){let Y=!1,k=d(L,D,H,G);r!==k&&(r=k,c(r.object)),Y=f(L,D,H,V),Y&&x(L,D,H,V),V!==null&&t.update(V,i.ELEMENT_ARRAY_BUFFER),(Y||a)&&(a=!1,b(L,G,H,D),V!==null&&i.bindBuffer(i.ELEMENT_ARRAY_BUFFER,t.get(V).buffer))}function l(){return i.createVertexArray()}function c(L){return i.bindVertexArray(L)}function h(L){return i.deleteVertexArray(L)}function d(L,G,H,D){let V=D.wireframe===!0,Y=n[G.id];Y===void 0&&(Y={},n[G.id]=Y);let k=L.isInstancedMesh===!0?L.id:0,ct=Y[k];ct===void 0&&(ct={},Y[k]=ct);let Z=ct[H.id];Z===void 0&&(Z={},ct[H.id]=Z);let j=Z[V];return j===void 0&&(j=u(l()),Z[V]=j),j}function u(L){let G=[],H=[],D=[];for(let V=0;V<e;V++)G[V]=0,H[V]=0,D[V]=0;return{geometry:null,program:null,wireframe:!1,newAttributes:G,enabledAttributes:H,attributeDivisors:D,object:L,attributes:{},index:null}}function f(L,G,H,D){let V=r.attributes,Y=G.attributes,k=0,ct=H.getAttributes();for(let Z in ct)if(ct[Z].location>=0){let st=V[Z],dt=Y[Z];if(dt===void 0&&(Z==="instanceMatrix"&&L.instanceMatrix&&(dt=L.instanceMatrix),Z==="instanceColor"&&L.instanceColor&&(dt=L.instanceColor)),st===void 0||st.attribute!==dt||dt&&st.data!==dt.data)return!0;k++}return r.attributesNum!==k||r.index!==D}function x(L,G,H,D){let V={},Y=G.attributes,k=0,ct=H.getAttributes();for(let Z in ct)if(ct[Z].location>=0){let st=Y[Z];st===void 0&&(Z==="instanceMatrix"&&L.instanceMatrix&&(st=L.instanceMatrix),Z==="instanceColor"&&L.instanceColor&&(st=L.instanceColor));let dt={};dt.attribute=st,st&&st.data&&(dt.data=st.data),V[Z]=dt,k++}r.attributes=V,r.attributesNum=k,r.index=D}function w(){let L=r.newAttributes;for(let G=0,H=L.length;G<H;G++)L[G]=0}function m(L){p(L,0)}function p(L,G){let H=r.newAttributes,D=r.enabledAttributes,V=r.attributeDivisors;H[L]=1,D[L]===0&&(i.enableVertexAttribArray(L),D[L]=1),V[L]!==G&&(i.vertexAttribDivisor(L,G),V[L]=G)}function M(){let L=r.newAttributes,G=r.enabledAttributes;for(let H=0,D=G.length;H<D;H++)G[H]!==L[H]&&(i.disableVertexAttribArray(H),G[H]=0)}function C(L,G,H,D,V,Y,k){k===!0?i.vertexAttribIPointer(L,G,H,V,Y):i.vertexAttribPointer(L,G,H,D,V,Y)}function b(L,G,H,D){w();let V=D.attributes,Y=H.getAttributes(),k=G.defaultAttributeValues;for(let ct in Y){let Z=Y[ct];if(Z.location>=0){let j=V[ct];if(j===void 0&&(ct==="instanceMatrix"&&L.instanceMatrix&&(j=L.instanceMatrix),ct==="instanceColor"&&L.instanceColor&&(j=L.instanceColor)),j!==void 0){let st=j.normalized,dt=j.itemSize,ut=t.get(j);if(ut===void 0)continue;let Q=ut.buffer,mt=ut.type,xt=ut.bytesPerElement,At=mt===i.INT||mt===i.UNSIGNED_INT||j.gpuType===ll;if(j.isInterleavedBufferAttribute){let Mt=j.data,Ht=Mt.isInterleavedBuffer===!0?Mt.stride:Mt.itemSize,ie=j.offset;if(Mt.isInstancedInterleavedBuffer||Mt.isInstancedBufferAttribute){for(let Vt=0;Vt<Z.locationSize;Vt++)p(Z.location+Vt,Mt.meshPerAttribute);L.isInstancedMesh!==!0&&D._maxInstanceCount===void 0&&(D._maxInstanceCount=Mt.meshPerAttribute*Mt.count)}else for(let Vt=0;Vt<Z.locationSize;Vt++)m(Z.location+Vt);i.bindBuffer(i.ARRAY_BUFFER,Q);for(let Vt=0;Vt<Z.locationSize;Vt++)C(Z.location+Vt,dt/Z.locationSize,mt,st,Ht*xt,(ie+dt/Z.locationSize*Vt)*xt,At)}else{if(j.isInstancedBufferAttribute){for(let Mt=0;Mt<Z.locationSize;Mt++)p(Z.location+Mt,j.meshPerAttribute);L.isInstancedMesh!==!0&&D._maxInstanceCount===void 0&&(D._maxInstanceCount=j.meshPerAttribute*j.count)}else for(let Mt=0;Mt<Z.locationSize;Mt++)m(Z.location+Mt);i.bindBuffer(i.ARRAY_BUFFER,Q);for(let Mt=0;Mt<Z.locationSize;Mt++)C(Z.location+Mt,dt/Z.locationSize,mt,st,dt*xt,dt/Z.locationSize*Mt*xt,At)}}else if(k!==void 0){let st=k[ct];if(st!==void 0)switch(st.length){case 2:i.vertexAttrib2fv(Z.location,st);break;case 3:i.vertexAttrib3fv(Z.location,st);break;case 4:i.vertexAttrib4fv(Z.location,st);break;default:i.vertexAttrib1fv(Z.location,st)}}}}M()}function I(){z();for(let L in n){let G=n[L];for(let H in G){let D=G[H];for(let V in D){let Y=D[V];for(let k in Y)h(Y[k].object),delete Y[k];delete D[V]}}delete n[L]}}function T(L){if(n[L.id]===void 0)return;let G=n[L.id];for(let H in G){let D=G[H];for(let V in D){let Y=D[V];for(let k in Y)h(Y[k].object),delete Y[k];delete D[V]}}delete n[L.id]}function _(L){for(let G in n){let H=n[G];for(let D in H){let V=H[D];if(V[L.id]===void 0)continue;let Y=V[L.id];for(let k in Y)h(Y[k].object),delete Y[k];delete V[L.id]}}}function E(L){for(let G in n){let H=n[G],D=L.isInstancedMesh===!0?L.id:0,V=H[D];if(V!==void 0){for(let Y in V){let k=V[Y];for(let ct in k)h(k[ct].object),delete k[ct];delete V[Y]}delete H[D],Object.keys(H).length===0&&delete n[G]}}}function z(){N(),a=!0,r!==s&&(r=s,c(r.object))}function N(){s.geometry=null,s.program=null,s.wireframe=!1}return{setup:o,reset:z,resetDefaultState:N,dispose:I,releaseStatesOfGeometry:T,releaseStatesOfObject:E,releaseStatesOfProgram:_,initAttributes:w,enableAttribute:m,disableUnusedAttributes:M}}function Jx(i,t,e){let n;function s(l){n=l}function r(l,c){i.drawArrays(n,l,c),e.update(c,n,1)}function a(l,c,h){h!==0&&(i.drawArraysInstanced(n,l,c,h),e.update(c,n,h))}function o(l,c,h){if(h===0)return;t.get("WEBGL_multi_draw").multiDrawArraysWEBGL(n,l,0,c,0,h);let u=0;for(let f=0;f<h;f++)u+=c[f];e.update(u,n,1)}this.setMode=s,this.render=r,this.renderInstances=a,this.renderMultiDraw=o}function Kx(i,t,e,n){let s;function r(){if(s!==void 0)return s;if(t.has("EXT_texture_filter_anisotropic")===!0){let _=t.get("EXT_texture_filter_anisotropic");s=i.getParameter(_.MAX_TEXTURE_MAX_ANISOTROPY_EXT)}else s=0;return s}function a(_){return!(_!==bi&&n.convert(_)!==i.getParameter(i.IMPLEMENTATION_COLOR_READ_FORMAT))}function o(_){let E=_===Mi&&(t.has("EXT_color_buffer_half_float")||t.has("EXT_color_buffer_float"));return!(_!==ti&&_!==Si&&!E&&n.convert(_)!==i.getParameter(i.IMPLEMENTATION_COLOR_READ_TYPE))}function l(_){if(_==="highp"){if(i.getShaderPrecisionFormat(i.VERTEX_SHADER,i.HIGH_FLOAT).precision>0&&i.getShaderPrecisionFormat(i.FRAGMENT_SHADER,i.HIGH_FLOAT).precision>0)return"highp";_="mediump"}return _==="mediump"&&i.getShaderPrecisionFormat(i.VERTEX_SHADER,i.MEDIUM_FLOAT).precision>0&&i.getShaderPrecisionFormat(i.FRAGMENT_SHADER,i.MEDIUM_FLOAT).precision>0?"mediump":"lowp"}let c=e.precision!==void 0?e.precision:"highp",h=l(c);h!==c&&($t("WebGLRenderer:",c,"not supported, using",h,"instead."),c=h);let d=e.reversedDepthBuffer===!0&&t.has("EXT_clip_control"),u=e.logarithmicDepthBuffer===!0&&d===!1;e.reversedDepthBuffer===!0&&d===!1&&$t("WebGLRenderer: Unable to use reversed depth buffer due to missing EXT_clip_control extension. Fallback to default depth buffer."),e.logarithmicDepthBuffer===!0&&d===!0&&$t("WebGLRenderer: Logarithmic depth buffer is ignored when reversed depth buffer is enabled.");let f=i.getParameter(i.MAX_TEXTURE_IMAGE_UNITS),x=i.getParameter(i.MAX_VERTEX_TEXTURE_IMAGE_UNITS),w=i.getParameter(i.MAX_TEXTURE_SIZE),m=i.getParameter(i.MAX_CUBE_MAP_TEXTURE_SIZE),p=i.getParameter(i.MAX_VERTEX_ATTRIBS),M=i.getParameter(i.MAX_VERTEX_UNIFORM_VECTORS),C=i.getParameter(i.MAX_VARYING_VECTORS),b=i.getParameter(i.MAX_FRAGMENT_UNIFORM_VECTORS),I=i.getParameter(i.MAX_SAMPLES),T=i.getParameter(i.SAMPLES);return{isWebGL2:!0,getMaxAnisotropy:r,getMaxPrecision:l,textureFormatReadable:a,textureTypeReadable:o,precision:c,logarithmicDepthBuffer:u,reversedDepthBuffer:d,maxTextures:f,maxVertexTextures:x,maxTextureSize:w,maxCubemapSize:m,maxAttributes:p,maxVertexUniforms:M,maxVaryings:C,maxFragmentUniforms:b,maxSamples:I,samples:T}}function jx(i){let t=this,e=null,n=0,s=!1,r=!1,a=new Yn,o=new Qt,l={value:null,needsUpdate:!1};this.uniform=l,this.numPlanes=0,this.numIntersection=0,this.init=function(d,u){let f=d.length!==0||u||n!==0||s;return s=u,n=d.length,f},this.beginShadows=function(){r=!0,h(null)},this.endShadows=function(){r=!1},this.setGlobalState=function(d,u){e=h(d,u,0)},this.setState=function(d,u,f){let x=d.clippingPlanes,w=d.clipIntersection,m=d.clipShadows,p=i.get(d);if(!s||x===null||x.length===0||r&&!m)r?h(null):c();else{let M=r?0:n,C=M*4,b=p.clippingState||null;l.value=b,b=h(x,u,C,f);for(let I=0;I!==C;++I)b[I]=e[I];p.clippingState=b,this.numIntersection=w?this.numPlanes:0,this.numPlanes+=M}};function c(){l.value!==e&&(l.value=e,l.needsUpdate=n>0),t.numPlanes=n,t.numIntersection=0}function h(d,u,f,x){let w=d!==null?d.length:0,m=null;if(w!==0){if(m=l.value,x!==!0||m===null){let p=f+w*4,M=u.matrixWorldInverse;o.getNormalMatrix(M),(m===null||m.length<p)&&(m=new Float32Array(p));for(let C=0,b=f;C!==w;++C,b+=4)a.copy(d[C]).applyMatrix4(M,o),a.normal.toArray(m,b),m[b+3]=a.constant}l.value=m,l.needsUpdate=!0}return t.numPlanes=w,t.numIntersection=0,m}}var Ga=class extends Kn{constructor(t=1,e={}){super(t,t,e),this.isWebGLCubeRenderTarget=!0;let n={width:t,height:t,depth:1},s=[n,n,n,n,n,n];this.texture=new Ea(s),this._setTextureOptions(e),this.texture.isRenderTargetTexture=!0}fromEquirectangularTexture(t,e){this.texture.type=e.type,this.texture.colorSpace=e.colorSpace,this.texture.generateMipmaps=e.generateMipmaps,this.texture.minFilter=e.minFilter,this.texture.magFilter=e.magFilter;let n={uniforms:{tEquirect:{value:null}},vertexShader:`

				varying vec3 vWorldDirection;

				vec3 transformDirection( in vec3 dir, in mat4 matrix ) {

					return normalize( ( matrix * vec4( dir, 0.0 ) ).xyz );

				}

				void main() {

					vWorldDirection = transformDirection( position, modelMatrix );

					#include <begin_vertex>
					#include <project_vertex>

				}
			`,fragmentShader:`

				uniform sampler2D tEquirect;

				varying vec3 vWorldDirection;

				#include <common>

				void main() {

					vec3 direction = normalize( vWorldDirection );

					vec2 sampleUV = equirectUv( direction );

					gl_FragColor = texture2D( tEquirect, sampleUV );

				}
			`},s=new Dr(5,5,5),r=new Bi({name:"CubemapFromEquirect",uniforms:Zs(n.uniforms),vertexShader:n.vertexShader,fragmentShader:n.fragmentShader,side:Fn,blending:Xs});r.uniforms.tEquirect.value=e;let a=new Oi(s,r),o=e.minFilter;return e.minFilter===is&&(e.minFilter=Un),new Nr(1,10,this).update(t,a),e.minFilter=o,a.geometry.dispose(),a.material.dispose(),this}clear(t,e=!0,n=!0,s=!0){let r=t.getRenderTarget();for(let a=0;a<6;a++)t.setRenderTarget(this,a),t.clear(e,n,s);t.setRenderTarget(r)}},Uf=256,Qx=3,ty=20,sp=256,rp=16,ey=3,ny=new J,iy=new ye,ql=class i{constructor(t){this._renderer=t,this._cubeSize=0,this._sourceTarget=null,this._cubeCamera=new Nr(1,10,null),this._boxMesh=new Oi(new Dr(5,5,5),null),this._cubemapMaterial=null,this._equirectMaterial=null,this._blurMaterial=null,this._ggxMaterial=null,this._integrationMaterial=null}fromScene(t,e=0,n=.1,s=100,r={}){let{size:a=256,position:o=ny}=r,l=this._renderer;this._setSize(a);let c=this._allocateTarget(),h=this._getSourceTarget(!0);e>0&&(h.texture.mipmapsAutoUpdate=!1);let d=l.autoClear,u=l.autoClearColor,f=l.autoClearDepth,x=l.autoClearStencil,w=t.background;l.autoClear=!0,l.autoClearColor=!0,l.autoClearDepth=!0,l.autoClearStencil=!0,w===null&&(t.background=l.getClearColor(iy));let m=new Nr(n,s,h);return m.position.copy(o),m.update(l,t),l.autoClear=d,l.autoClearColor=u,l.autoClearDepth=f,l.autoClearStencil=x,t.background=w,e>0&&(h.texture.mipmapsAutoUpdate=!0,this._blur(c,e)),this._applyPMREM(c),c}fromEquirectangular(t,e=null){return this._fromTexture(t,e)}fromCubemap(t,e=null){return this._fromTexture(t,e)}compileCubemapShader(){this._cubemapMaterial===null&&(this._cubemapMaterial=Bf(),this._compileMaterial(this._cubemapMaterial))}compileEquirectangularShader(){this._equirectMaterial===null&&(this._equirectMaterial=Of(),this._compileMaterial(this._equirectMaterial))}dispose(){this._sourceTarget!==null&&this._sourceTarget.dispose(),this._cubemapMaterial!==null&&this._cubemapMaterial.dispose(),this._equirectMaterial!==null&&this._equirectMaterial.dispose(),this._blurMaterial!==null&&this._blurMaterial.dispose(),this._ggxMaterial!==null&&this._ggxMaterial.dispose(),this._integrationMaterial!==null&&this._integrationMaterial.dispose(),this._boxMesh.geometry.dispose()}static lodToRoughness(t,e){return e>0?1-Math.sqrt(1-t/e):0}_setSize(t){this._cubeSize=Math.max(Uf,Uh(t))}_fromTexture(t,e){t.mapping===$s||t.mapping===Br?this._setSize(t.image.length===0?Uf:t.image[0].width||t.image[0].image.width):this._setSize(t.image.width/4);let n=e||this._allocateTarget();return this._textureToCubemap(t),this._applyPMREM(n),n}_allocateTarget(){let t=this._cubeSize,e=Ff(t,!1,!1),n=Math.log2(t)-Qx;for(let s=0;s<=n;s++)e.texture.mipmaps.push({width:t>>s,height:t>>s});return e.texture.name="PMREM",e.texture.isPMREMTexture=!0,e}_getSourceTarget(t=!1){let e=this._cubeSize,n=this._sourceTarget;return(n===null||n.width!==e||t&&n.depthBuffer===!1)&&(n!==null&&n.dispose(),this._sourceTarget=Ff(e,!0,t)),this._sourceTarget}_compileMaterial(t){this._boxMesh.material=t,this._renderer.compile(this._boxMesh,this._cubeCamera.children[0])}_renderCube(t,e,n){let s=this._boxMesh,r=this._cubeCamera;s.material=n,r.renderTarget=t,r.activeMipmapLevel=e;let a=t.width>>e;t.viewport.set(0,0,a,a),r.update(this._renderer,s),t.viewport.set(0,0,t.width,t.height)}_textureToCubemap(t){let e;t.mapping===$s||t.mapping===Br?(this._cubemapMaterial===null&&(this._cubemapMaterial=Bf()),e=this._cubemapMaterial,e.uniforms.flipEnvMap.value=t.isRenderTargetTexture===!1?-1:1):(this._equirectMaterial===null&&(this._equirectMaterial=Of()),e=this._equirectMaterial),e.uniforms.envMap.value=t,this._renderCube(this._getSourceTarget(),0,e)}_applyPMREM(t){this._ggxMaterial===null&&(this._ggxMaterial=sy(),this._integrationMaterial=ry());let e=this._cubeSize,n=t.texture.mipmaps.length-1,s=this._ggxMaterial.uniforms;s.envMap.value=this._sourceTarget.texture;let r=this._integrationMaterial.uniforms;r.envMap.value=this._sourceTarget.texture,r.sourceLod.value=Math.log2(e/rp);for(let a=0;a<=n;a++){let o=i.lodToRoughness(a,n);if(a>n-ey)r.roughness.value=o,this._renderCube(t,a,this._integrationMaterial);else{let l=o>0?Math.log2(e)+.5*Math.log2(6/(sp*Math.pow(o,4)))+.5:0;s.roughness.value=o,s.lodBias.value=l,this._renderCube(t,a,this._ggxMaterial)}}}_blur(t,e){this._blurMaterial===null&&(this._blurMaterial=ay());let n=this._blurMaterial,s=n.uniforms,r=this._sourceTarget;s.sigma.value=Math.min(e,Math.PI)/Math.SQRT2,s.envMap.value=r.texture,this._renderCube(t,0,n),s.envMap.value=t.texture,this._renderCube(r,0,n)}};function Ff(i,t,e){return new Ga(i,{minFilter:is,generateMipmaps:t,type:Mi,colorSpace:Vs,depthBuffer:e})}function Ha(i,t,e){return new Bi({name:i,uniforms:t,vertexShader:ce.cube_vert,fragmentShader:e,side:Fn,blending:Xs,depthTest:!1,depthWrite:!1})}function sy(){return Ha("PMREMGGXConvolution",{envMap:{value:null},roughness:{value:0},lodBias:{value:0}},`

		#define GGX_SAMPLES ${sp}u

		varying vec3 vWorldDirection;

		uniform samplerCube envMap;
		uniform float roughness;
		uniform float lodBias;

		#include <common>

		// Van der Corput radical inverse
		float radicalInverse_VdC( uint bits ) {

			bits = ( bits << 16u ) | ( bits >> 16u );
			bits = ( ( bits & 0x55555555u ) << 1u ) | ( ( bits & 0xAAAAAAAAu ) >> 1u );
			bits = ( ( bits & 0x33333333u ) << 2u ) | ( ( bits & 0xCCCCCCCCu ) >> 2u );
			bits = ( ( bits & 0x0F0F0F0Fu ) << 4u ) | ( ( bits & 0xF0F0F0F0u ) >> 4u );
			bits = ( ( bits & 0x00FF00FFu ) << 8u ) | ( ( bits & 0xFF00FF00u ) >> 8u );
			return float( bits ) * 2.3283064365386963e-10; // / 0x100000000

		}

		// Hammersley sequence
		vec2 hammersley( uint i, uint N ) {

			return vec2( float( i ) / float( N ), radicalInverse_VdC( i ) );

		}

		void main() {

			vec3 N = normalize( vWorldDirection );

			// For very low roughness, just sample the environment directly
			if ( roughness < 0.001 ) {

				gl_FragColor = vec4( textureLod( envMap, N, 0.0 ).rgb, 1.0 );
				return;

			}

			float alpha = roughness * roughness;
			float alpha2 = alpha * alpha;

			// Tangent space basis for VNDF sampling
			vec3 up = abs( N.z ) < 0.999 ? vec3( 0.0, 0.0, 1.0 ) : vec3( 1.0, 0.0, 0.0 );
			vec3 tangent = normalize( cross( up, N ) );
			vec3 bitangent = cross( N, tangent );

			vec3 prefilteredColor = vec3( 0.0 );
			float totalWeight = 0.0;

			for ( uint i = 0u; i < GGX_SAMPLES; i ++ ) {

				vec2 Xi = hammersley( i, GGX_SAMPLES );

				// With V = N, sample the reflected direction directly.
				float invQ = 1.0 / ( 1.0 - Xi.x + alpha2 * Xi.x );
				float NdotL = ( 1.0 - Xi.x - alpha2 * Xi.x ) * invQ;

				if ( NdotL > 0.0 ) {

					float phi = 2.0 * PI * Xi.y;
					float sinTheta = 2.0 * alpha * sqrt( Xi.x * ( 1.0 - Xi.x ) ) * invQ;
					vec3 L = N * NdotL + ( tangent * cos( phi ) + bitangent * sin( phi ) ) * sinTheta;

					// Match the source mip to the sample's solid angle. The terms
					// independent of the sample are precomputed in lodBias.
					float d = alpha2 * invQ;
					float lod = max( log2( d ) + lodBias, 0.0 );

					// Weight by NdotL for the split-sum approximation
					prefilteredColor += textureLod( envMap, L, lod ).rgb * NdotL;
					totalWeight += NdotL;

				}

			}

			gl_FragColor = vec4( prefilteredColor / totalWeight, 1.0 );

		}
	`)}function ry(){return Ha("PMREMGGXIntegration",{envMap:{value:null},roughness:{value:0},sourceLod:{value:0},sourceSize:{value:rp}},`

		varying vec3 vWorldDirection;

		uniform samplerCube envMap;
		uniform float roughness;
		uniform float sourceLod;
		uniform int sourceSize;

		void main() {

			vec3 N = normalize( vWorldDirection );

			float alpha = roughness * roughness;
			float alpha2 = alpha * alpha;

			float texelSize = 2.0 / float( sourceSize );

			vec3 prefilteredColor = vec3( 0.0 );
			float totalWeight = 0.0;

			// Pair opposite texels: only the one in N's hemisphere contributes.
			for ( int face = 0; face < 3; face ++ ) {

				for ( int y = 0; y < sourceSize; y ++ ) {

					for ( int x = 0; x < sourceSize; x ++ ) {

						vec2 uv = ( vec2( x, y ) + 0.5 ) * texelSize - 1.0;
						vec3 texelDirection = face == 0 ? vec3( 1.0, uv ) : ( face == 1 ? vec3( uv.x, 1.0, uv.y ) : vec3( uv, 1.0 ) );

						float invDistance = inversesqrt( 1.0 + dot( uv, uv ) );
						float NdotL = dot( N, texelDirection );
						texelDirection *= NdotL < 0.0 ? - 1.0 : 1.0;
						NdotL = abs( NdotL ) * invDistance;

						// With V = N, NdotH squared is ( 1 + NdotL ) / 2. Common factors
						// in the GGX distribution and texel solid angle cancel when normalized.
						float d = 1.0 + alpha2 + ( alpha2 - 1.0 ) * NdotL;
						float weight = NdotL * invDistance * invDistance * invDistance / ( d * d );

						prefilteredColor += textureLod( envMap, texelDirection, sourceLod ).rgb * weight;
						totalWeight += weight;

					}

				}

			}

			gl_FragColor = vec4( prefilteredColor / totalWeight, 1.0 );

		}
	`)}function ay(){return Ha("PMREMSphericalGaussianBlur",{envMap:{value:null},sigma:{value:0}},`

		#define SAMPLES ${ty}
		#define GOLDEN_ANGLE 2.39996322973

		varying vec3 vWorldDirection;

		uniform samplerCube envMap;
		uniform float sigma;

		#include <common>

		void main() {

			vec3 outputDirection = normalize( vWorldDirection );

			vec3 up = abs( outputDirection.z ) < 0.999 ? vec3( 0.0, 0.0, 1.0 ) : vec3( 1.0, 0.0, 0.0 );
			vec3 tangent = normalize( cross( up, outputDirection ) );
			vec3 bitangent = cross( outputDirection, tangent );

			// Truncate the kernel at three standard deviations or at the antipode.
			float thetaMax = min( 3.0 * sigma, PI );
			float truncation = 1.0 - exp( - 0.5 * thetaMax * thetaMax / ( sigma * sigma ) );

			vec3 accumColor = vec3( 0.0 );
			float accumWeight = 0.0;

			for ( int i = 0; i < SAMPLES; i ++ ) {

				// Stratified inverse-CDF sampling of the Gaussian, placed on a golden-angle spiral.
				float stratum = ( float( i ) + 0.5 ) / float( SAMPLES );
				float theta = sigma * sqrt( - 2.0 * log( 1.0 - stratum * truncation ) );
				float phi = float( i ) * GOLDEN_ANGLE;

				vec3 offset = cos( phi ) * tangent + sin( phi ) * bitangent;
				vec3 sampleDirection = cos( theta ) * outputDirection + sin( theta ) * offset;

				// Correct the planar sample density to solid angle.
				float weight = sin( theta ) / theta;

				accumColor += weight * textureLod( envMap, sampleDirection, 0.0 ).rgb;
				accumWeight += weight;

			}

			gl_FragColor = vec4( accumColor / accumWeight, 1.0 );

		}
	`)}function Of(){return Ha("PMREMEquirectangularToCubemap",{envMap:{value:null}},`

		varying vec3 vWorldDirection;

		uniform sampler2D envMap;

		#include <common>

		void main() {

			// Average four subpixel samples to preserve small, bright features.
			vec3 direction = normalize( vWorldDirection );
			vec3 dx = dFdx( direction ) * 0.25;
			vec3 dy = dFdy( direction ) * 0.25;

			vec3 color = textureLod( envMap, equirectUv( normalize( direction - dx - dy ) ), 0.0 ).rgb;
			color += textureLod( envMap, equirectUv( normalize( direction + dx - dy ) ), 0.0 ).rgb;
			color += textureLod( envMap, equirectUv( normalize( direction - dx + dy ) ), 0.0 ).rgb;
			color += textureLod( envMap, equirectUv( normalize( direction + dx + dy ) ), 0.0 ).rgb;
			gl_FragColor = vec4( color * 0.25, 1.0 );

		}
	`)}function Bf(){return Ha("PMREMCubemapToCubemap",{envMap:{value:null},flipEnvMap:{value:-1}},`

		varying vec3 vWorldDirection;

		uniform samplerCube envMap;
		uniform float flipEnvMap;

		void main() {

			gl_FragColor = vec4( textureCube( envMap, vec3( flipEnvMap * vWorldDirection.x, vWorldDirection.yz ) ).rgb, 1.0 );

		}
	`)}function oy(i){let t=new WeakMap,e=new WeakMap,n=null;function s(u,f=!1){return u==null?null:f?a(u):r(u)}function r(u){if(u&&u.isTexture){let f=u.mapping;if(f===rl||f===al)if(t.has(u)){let x=t.get(u).texture;return o(x,u.mapping)}else{let x=u.image;if(x&&x.height>0){let w=new Ga(x.height);return w.fromEquirectangularTexture(i,u),t.set(u,w),u.addEventListener("dispose",c),o(w.texture,u.mapping)}else return null}}return u}function a(u){if(u&&u.isTexture&&u.isPMREMTexture!==!0){let f=u.mapping,x=f===rl||f===al,w=f===$s||f===Br;if(x||w){let m=e.get(u),p=m!==void 0?m.texture.pmremVersion:0;if(u.isRenderTargetTexture&&u.pmremVersion!==p)return n===null&&(n=new ql(i)),m=x?n.fromEquirectangular(u,m):n.fromCubemap(u,m),m.texture.pmremVersion=u.pmremVersion,e.set(u,m),m.texture;if(m!==void 0)return m.texture;{let M=u.image;return x&&M&&M.height>0||w&&M&&l(M)?(n===null&&(n=new ql(i)),m=x?n.fromEquirectangular(u):n.fromCubemap(u),m.texture.pmremVersion=u.pmremVersion,e.set(u,m),u.addEventListener("dispose",h),m.texture):null}}}return u}function o(u,f){return f===rl?u.mapping=$s:f===al&&(u.mapping=Br),u}function l(u){let f=0,x=6;for(let w=0;w<x;w++)u[w]!==void 0&&f++;return f===x}function c(u){let f=u.target;f.removeEventListener("dispose",c);let x=t.get(f);x!==void 0&&(t.delete(f),x.dispose())}function h(u){let f=u.target;f.removeEventListener("dispose",h);let x=e.get(f);x!==void 0&&(e.delete(f),x.dispose())}function d(){t=new WeakMap,e=new WeakMap,n!==null&&(n.dispose(),n=null)}return{get:s,dispose:d}}function ly(i){let t={};function e(n){if(t[n]!==void 0)return t[n];let s=i.getExtension(n);return t[n]=s,s}return{has:function(n){return e(n)!==null},init:function(){e("EXT_color_buffer_float"),e("WEBGL_clip_cull_distance"),e("OES_texture_float_linear"),e("EXT_color_buffer_half_float"),e("WEBGL_multisampled_render_to_texture"),e("WEBGL_render_shared_exponent")},get:function(n){let s=e(n);return s===null&&da("WebGLRenderer: "+n+" extension not supported."),s}}}function cy(i,t,e,n){let s={},r=new WeakMap,a=new FinalizationRegistry(x=>delete s[x]);function o(x){l(x.target)}function l(x){x.index!==null&&t.remove(x.index);for(let m in x.attributes)t.remove(x.attributes[m]);x.removeEventListener("dispose",o),delete s[x.id],a.unregister(x);let w=r.get(x);w&&(t.remove(w),r.delete(x)),n.releaseStatesOfGeometry(x),x.isInstancedBufferGeometry===!0&&delete x._maxInstanceCount,e.memory.geometries--}function c(x,w){return s[w.id]!==void 0||(w.addEventListener("dispose",o),s[w.id]=new WeakRef(w),a.register(w,w.id,w),e.memory.geometries++),w}function h(x){let w=x.attributes;for(let m in w)t.update(w[m],i.ARRAY_BUFFER)}function d(x){let w=x.index,m=x.attributes.position,p=0;if(m===void 0)return;let M=w!==null?w.array.length:m.array.length/3-1,C=m.count>=65535?ba:Ma,b=new C(Math.ceil(M/3)*6,1),I=b.array;if(w!==null){let _=w.array;p=w.version;for(let E=0,z=0;E<M;E+=3){let N=_[E+0],L=_[E+1],G=_[E+2];I[z++]=N,I[z++]=L,I[z++]=L,I[z++]=G,I[z++]=G,I[z++]=N}}else{p=m.version;for(let _=0,E=0;_<M;_+=3){let z=_+0,N=_+1,L=_+2;I[E++]=z,I[E++]=N,I[E++]=N,I[E++]=L,I[E++]=L,I[E++]=z}}b.version=p;let T=r.get(x);T&&t.remove(T),r.set(x,b)}function u(x){let w=r.get(x);if(w){let m=x.index;m!==null&&w.version<m.version&&d(x)}else d(x);return r.get(x)}function f(){for(let x in s){let w=s[x].deref();w!==void 0&&l(w)}}return{get:c,update:h,getWireframeAttribute:u,dispose:f}}function hy(i,t,e){let n;function s(d){n=d}let r,a;function o(d){r=d.type,a=d.bytesPerElement}function l(d,u){i.drawElements(n,u,r,d*a),e.update(u,n,1)}function c(d,u,f){f!==0&&(i.drawElementsInstanced(n,u,r,d*a,f),e.update(u,n,f))}function h(d,u,f){if(f===0)return;t.get("WEBGL_multi_draw").multiDrawElementsWEBGL(n,u,0,r,d,0,f);let w=0;for(let m=0;m<f;m++)w+=u[m];e.update(w,n,1)}this.setMode=s,this.setIndex=o,this.render=l,this.renderInstances=c,this.renderMultiDraw=h}function uy(i){let t={geometries:0,textures:0},e={frame:0,calls:0,triangles:0,points:0,lines:0};function n(r,a,o){switch(e.calls++,a){case i.TRIANGLES:e.triangles+=o*(r/3);break;case i.LINES:e.lines+=o*(r/2);break;case i.LINE_STRIP:e.lines+=o*(r-1);break;case i.LINE_LOOP:e.lines+=o*r;break;case i.POINTS:e.points+=o*r;break;default:jt("WebGLInfo: Unknown draw mode:",a);break}}function s(){e.calls=0,e.triangles=0,e.points=0,e.lines=0}return{memory:t,render:e,programs:null,autoReset:!0,reset:s,update:n}}function dy(i,t,e){let n=new WeakMap,s=new qe;function r(a,o,l){let c=a.morphTargetInfluences,h=o.morphAttributes.position||o.morphAttributes.normal||o.morphAttributes.color,d=h!==void 0?h.length:0,u=n.get(o);if(u===void 0||u.count!==d){let z=function(){_.dispose(),n.delete(o),o.removeEventListener("dispose",z)};u!==void 0&&u.texture.dispose();let f=o.morphAttributes.position!==void 0,x=o.morphAttributes.normal!==void 0,w=o.morphAttributes.color!==void 0,m=o.morphAttributes.position||[],p=o.morphAttributes.normal||[],M=o.morphAttributes.color||[],C=0;f===!0&&(C=1),x===!0&&(C=2),w===!0&&(C=3);let b=o.attributes.position.count*C,I=1;b>t.maxTextureSize&&(I=Math.ceil(b/t.maxTextureSize),b=t.maxTextureSize);let T=new Float32Array(b*I*4*d),_=new ya(T,b,I,d);_.type=Si,_.needsUpdate=!0;let E=C*4;for(let N=0;N<d;N++){let L=m[N],G=p[N],H=M[N],D=b*I*4*N;for(let V=0;V<L.count;V++){let Y=V*E;f===!0&&(s.fromBufferAttribute(L,V),T[D+Y+0]=s.x,T[D+Y+1]=s.y,T[D+Y+2]=s.z,T[D+Y+3]=0),x===!0&&(s.fromBufferAttribute(G,V),T[D+Y+4]=s.x,T[D+Y+5]=s.y,T[D+Y+6]=s.z,T[D+Y+7]=0),w===!0&&(s.fromBufferAttribute(H,V),T[D+Y+8]=s.x,T[D+Y+9]=s.y,T[D+Y+10]=s.z,T[D+Y+11]=H.itemSize===4?s.w:1)}}u={count:d,texture:_,size:new re(b,I)},n.set(o,u),o.addEventListener("dispose",z)}if(a.isInstancedMesh===!0&&a.morphTexture!==null)l.getUniforms().setValue(i,"morphTexture",a.morphTexture,e);else{let f=0;for(let w=0;w<c.length;w++)f+=c[w];let x=o.morphTargetsRelative?1:1-f;l.getUniforms().setValue(i,"morphTargetBaseInfluence",x),l.getUniforms().setValue(i,"morphTargetInfluences",c)}l.getUniforms().setValue(i,"morphTargetsTexture",u.texture,e),l.getUniforms().setValue(i,"morphTargetsTextureSize",u.size)}return{update:r}}function fy(i,t,e,n,s){let r=new WeakMap;function a(c){let h=s.render.frame,d=c.geometry,u=t.get(c,d);if(r.get(u)!==h&&(t.update(u),r.set(u,h)),c.isInstancedMesh&&(c.hasEventListener("dispose",l)===!1&&c.addEventListener("dispose",l),r.get(c)!==h&&(e.update(c.instanceMatrix,i.ARRAY_BUFFER),c.instanceColor!==null&&e.update(c.instanceColor,i.ARRAY_BUFFER),r.set(c,h))),c.isSkinnedMesh){let f=c.skeleton;r.get(f)!==h&&(f.update(),r.set(f,h))}return u}function o(){r=new WeakMap}function l(c){let h=c.target;h.removeEventListener("dispose",l),n.releaseStatesOfObject(h),e.remove(h.instanceMatrix),h.instanceColor!==null&&e.remove(h.instanceColor)}return{update:a,dispose:o}}var py={[fh]:"LINEAR_TONE_MAPPING",[ph]:"REINHARD_TONE_MAPPING",[mh]:"CINEON_TONE_MAPPING",[gh]:"ACES_FILMIC_TONE_MAPPING",[xh]:"AGX_TONE_MAPPING",[yh]:"NEUTRAL_TONE_MAPPING",[_h]:"CUSTOM_TONE_MAPPING"};function my(i,t,e,n,s,r){let a=new Kn(t,e,{type:i,depthBuffer:s,stencilBuffer:r,samples:n?4:0,storeMultisampledDepthBuffer:!1,storeMultisampledStencilBuffer:!1,resolveDepthBuffer:!1,resolveStencilBuffer:!1}),o=null,l=null,c=null,h=new ci;h.setAttribute("position",new li([-1,3,0,-1,-1,0,3,-1,0],3)),h.setAttribute("uv",new li([0,2,0,0,2,0],2));let d=new Ho({uniforms:{tDiffuse:{value:null}},vertexShader:`
			precision highp float;

			uniform mat4 modelViewMatrix;
			uniform mat4 projectionMatrix;

			attribute vec3 position;
			attribute vec2 uv;

			varying vec2 vUv;

			void main() {
				vUv = uv;
				gl_Position = projectionMatrix * modelViewMatrix * vec4( position, 1.0 );
			}`,fragmentShader:`
			precision highp float;

			uniform sampler2D tDiffuse;

			varying vec2 vUv;

			#include <tonemapping_pars_fragment>
			#include <colorspace_pars_fragment>

			void main() {
				gl_FragColor = texture2D( tDiffuse, vUv );

				#ifdef LINEAR_TONE_MAPPING
					gl_FragColor.rgb = LinearToneMapping( gl_FragColor.rgb );
				#elif defined( REINHARD_TONE_MAPPING )
					gl_FragColor.rgb = ReinhardToneMapping( gl_FragColor.rgb );
				#elif defined( CINEON_TONE_MAPPING )
					gl_FragColor.rgb = CineonToneMapping( gl_FragColor.rgb );
				#elif defined( ACES_FILMIC_TONE_MAPPING )
					gl_FragColor.rgb = ACESFilmicToneMapping( gl_FragColor.rgb );
				#elif defined( AGX_TONE_MAPPING )
					gl_FragColor.rgb = AgXToneMapping( gl_FragColor.rgb );
				#elif defined( NEUTRAL_TONE_MAPPING )
					gl_FragColor.rgb = NeutralToneMapping( gl_FragColor.rgb );
				#elif defined( CUSTOM_TONE_MAPPING )
					gl_FragColor.rgb = CustomToneMapping( gl_FragColor.rgb );
				#endif

				#ifdef SRGB_TRANSFER
					gl_FragColor = sRGBTransferOETF( gl_FragColor );
				#endif
			}`,depthTest:!1,depthWrite:!1}),u=new Oi(h,d),f=new nl(-1,1,1,-1,0,1),x=null,w=null,m=!1,p,M=null,C=[],b=!1;this.setSize=function(I,T){a.setSize(I,T),o!==null&&o.setSize(I,T),l!==null&&l.setSize(I,T);for(let _=0;_<C.length;_++){let E=C[_];E.setSize&&E.setSize(I,T)}},this.setEffects=function(I){C=I,b=C.length>0&&C[0].isRenderPass===!0;let T=a.width,_=a.height;C.length>0&&o===null&&(o=new Kn(T,_,{type:Mi,depthBuffer:!1,stencilBuffer:!1}),l=new Kn(T,_,{type:Mi,depthBuffer:!1,stencilBuffer:!1}));let E=s===!0&&C.some(z=>z.needsDepthTexture===!0);E!==(a.depthTexture!==null)&&(E===!0&&c===null&&(c=new ns(T,_),r===!0&&(c.format=ss,c.type=Ys)),a.dispose(),a.depthTexture=E?c:null,a.resolveDepthBuffer=E,a.storeMultisampledDepthBuffer=E);for(let z=0;z<C.length;z++){let N=C[z];N.setSize&&N.setSize(T,_),E&&N.needsDepthTexture===!0&&N.setDepthTexture&&N.setDepthTexture(c)}},this.begin=function(I,T){if(m||I.toneMapping===zi&&C.length===0)return!1;if(M=T,T!==null){let _=T.width,E=T.height;(a.width!==_||a.height!==E)&&this.setSize(_,E)}return b===!1&&I.setRenderTarget(a),p=I.toneMapping,I.toneMapping=zi,!0},this.hasRenderPass=function(){return b},this.end=function(I,T){I.toneMapping=p,m=!0;let _=a,E=o;for(let z=0;z<C.length;z++){let N=C[z];N.enabled!==!1&&(N.render(I,E,_,T),N.needsSwap!==!1&&(_=E,E=E===o?l:o))}if(x!==I.outputColorSpace||w!==I.toneMapping){x=I.outputColorSpace,w=I.toneMapping,d.defines={},ge.getTransfer(x)===Ee&&(d.defines.SRGB_TRANSFER="");let z=py[w];z&&(d.defines[z]=""),d.needsUpdate=!0}d.uniforms.tDiffuse.value=_.texture,I.setRenderTarget(M),I.render(u,f),M=null,m=!1},this.isCompositing=function(){return m},this.dispose=function(){a.dispose(),o!==null&&o.dispose(),l!==null&&l.dispose(),h.dispose(),d.dispose()}}var ap=new Bn,op=new ns(1,1),lp=new Ta(1),cp=new ya,hp=new ko,up=new Ea,kf=[],zf=[],Vf=new Float32Array(16),Gf=new Float32Array(9),Hf=new Float32Array(4);function Gr(i,t,e){let n=i[0];if(n<=0||n>0)return i;let s=t*e,r=kf[s];if(r===void 0&&(r=new Float32Array(s),kf[s]=r),t!==0){n.toArray(r,0);for(let a=1,o=0;a!==t;++a)o+=e,i[a].toArray(r,o)}return r}function un(i,t){if(i.length!==t.length)return!1;for(let e=0,n=i.length;e<n;e++)if(i[e]!==t[e])return!1;return!0}function dn(i,t){for(let e=0,n=t.length;e<n;e++)i[e]=t[e]}function Yl(i,t){let e=zf[t];e===void 0&&(e=new Int32Array(t),zf[t]=e);for(let n=0;n!==t;++n)e[n]=i.allocateTextureUnit();return e}function gy(i,t){let e=this.cache;e[0]!==t&&(i.uniform1f(this.addr,t),e[0]=t)}function _y(i,t){let e=this.cache;if(t.x!==void 0)(e[0]!==t.x||e[1]!==t.y)&&(i.uniform2f(this.addr,t.x,t.y),e[0]=t.x,e[1]=t.y);else{if(un(e,t))return;i.uniform2fv(this.addr,t),dn(e,t)}}function xy(i,t){let e=this.cache;if(t.x!==void 0)(e[0]!==t.x||e[1]!==t.y||e[2]!==t.z)&&(i.uniform3f(this.addr,t.x,t.y,t.z),e[0]=t.x,e[1]=t.y,e[2]=t.z);else if(t.r!==void 0)(e[0]!==t.r||e[1]!==t.g||e[2]!==t.b)&&(i.uniform3f(this.addr,t.r,t.g,t.b),e[0]=t.r,e[1]=t.g,e[2]=t.b);else{if(un(e,t))return;i.uniform3fv(this.addr,t),dn(e,t)}}function yy(i,t){let e=this.cache;if(t.x!==void 0)(e[0]!==t.x||e[1]!==t.y||e[2]!==t.z||e[3]!==t.w)&&(i.uniform4f(this.addr,t.x,t.y,t.z,t.w),e[0]=t.x,e[1]=t.y,e[2]=t.z,e[3]=t.w);else{if(un(e,t))return;i.uniform4fv(this.addr,t),dn(e,t)}}function vy(i,t){let e=this.cache,n=t.elements;if(n===void 0){if(un(e,t))return;i.uniformMatrix2fv(this.addr,!1,t),dn(e,t)}else{if(un(e,n))return;Hf.set(n),i.uniformMatrix2fv(this.addr,!1,Hf),dn(e,n)}}function Sy(i,t){let e=this.cache,n=t.elements;if(n===void 0){if(un(e,t))return;i.uniformMatrix3fv(this.addr,!1,t),dn(e,t)}else{if(un(e,n))return;Gf.set(n),i.uniformMatrix3fv(this.addr,!1,Gf),dn(e,n)}}function My(i,t){let e=this.cache,n=t.elements;if(n===void 0){if(un(e,t))return;i.uniformMatrix4fv(this.addr,!1,t),dn(e,t)}else{if(un(e,n))return;Vf.set(n),i.uniformMatrix4fv(this.addr,!1,Vf),dn(e,n)}}function by(i,t){let e=this.cache;e[0]!==t&&(i.uniform1i(this.addr,t),e[0]=t)}function wy(i,t){let e=this.cache;if(t.x!==void 0)(e[0]!==t.x||e[1]!==t.y)&&(i.uniform2i(this.addr,t.x,t.y),e[0]=t.x,e[1]=t.y);else{if(un(e,t))return;i.uniform2iv(this.addr,t),dn(e,t)}}function Ey(i,t){let e=this.cache;if(t.x!==void 0)(e[0]!==t.x||e[1]!==t.y||e[2]!==t.z)&&(i.uniform3i(this.addr,t.x,t.y,t.z),e[0]=t.x,e[1]=t.y,e[2]=t.z);else{if(un(e,t))return;i.uniform3iv(this.addr,t),dn(e,t)}}function Ty(i,t){let e=this.cache;if(t.x!==void 0)(e[0]!==t.x||e[1]!==t.y||e[2]!==t.z||e[3]!==t.w)&&(i.uniform4i(this.addr,t.x,t.y,t.z,t.w),e[0]=t.x,e[1]=t.y,e[2]=t.z,e[3]=t.w);else{if(un(e,t))return;i.uniform4iv(this.addr,t),dn(e,t)}}function Ay(i,t){let e=this.cache;e[0]!==t&&(i.uniform1ui(this.addr,t),e[0]=t)}function Ry(i,t){let e=this.cache;if(t.x!==void 0)(e[0]!==t.x||e[1]!==t.y)&&(i.uniform2ui(this.addr,t.x,t.y),e[0]=t.x,e[1]=t.y);else{if(un(e,t))return;i.uniform2uiv(this.addr,t),dn(e,t)}}function Cy(i,t){let e=this.cache;if(t.x!==void 0)(e[0]!==t.x||e[1]!==t.y||e[2]!==t.z)&&(i.uniform3ui(this.addr,t.x,t.y,t.z),e[0]=t.x,e[1]=t.y,e[2]=t.z);else{if(un(e,t))return;i.uniform3uiv(this.addr,t),dn(e,t)}}function Py(i,t){let e=this.cache;if(t.x!==void 0)(e[0]!==t.x||e[1]!==t.y||e[2]!==t.z||e[3]!==t.w)&&(i.uniform4ui(this.addr,t.x,t.y,t.z,t.w),e[0]=t.x,e[1]=t.y,e[2]=t.z,e[3]=t.w);else{if(un(e,t))return;i.uniform4uiv(this.addr,t),dn(e,t)}}function Zl(i){return i.version===0&&(i.compareFunction=Ih,i.needsUpdate=!0),i}function Iy(i,t,e){let n=this.cache,s=e.allocateTextureUnit();n[0]!==s&&(i.uniform1i(this.addr,s),n[0]=s);let r;this.type===i.SAMPLER_2D_SHADOW?r=Zl(op):r=ap,e.setTexture2D(t||r,s)}function Ly(i,t,e){let n=this.cache,s=e.allocateTextureUnit();n[0]!==s&&(i.uniform1i(this.addr,s),n[0]=s),e.setTexture3D(t||hp,s)}function Dy(i,t,e){let n=this.cache,s=e.allocateTextureUnit();n[0]!==s&&(i.uniform1i(this.addr,s),n[0]=s);let r;this.type===i.SAMPLER_CUBE_SHADOW?r=Zl(lp):r=up,e.setTextureCube(t||r,s)}function Ny(i,t,e){let n=this.cache,s=e.allocateTextureUnit();n[0]!==s&&(i.uniform1i(this.addr,s),n[0]=s),e.setTexture2DArray(t||cp,s)}function Uy(i){switch(i){case 5126:return gy;case 35664:return _y;case 35665:return xy;case 35666:return yy;case 35674:return vy;case 35675:return Sy;case 35676:return My;case 5124:case 35670:return by;case 35667:case 35671:return wy;case 35668:case 35672:return Ey;case 35669:case 35673:return Ty;case 5125:return Ay;case 36294:return Ry;case 36295:return Cy;case 36296:return Py;case 35678:case 36198:case 36298:case 36306:case 35682:return Iy;case 35679:case 36299:case 36307:return Ly;case 35680:case 36300:case 36308:case 36293:return Dy;case 36289:case 36303:case 36311:case 36292:return Ny}}function Fy(i,t){i.uniform1fv(this.addr,t)}function Oy(i,t){let e=Gr(t,this.size,2);i.uniform2fv(this.addr,e)}function By(i,t){let e=Gr(t,this.size,3);i.uniform3fv(this.addr,e)}function ky(i,t){let e=Gr(t,this.size,4);i.uniform4fv(this.addr,e)}function zy(i,t){let e=Gr(t,this.size,4);i.uniformMatrix2fv(this.addr,!1,e)}function Vy(i,t){let e=Gr(t,this.size,9);i.uniformMatrix3fv(this.addr,!1,e)}function Gy(i,t){let e=Gr(t,this.size,16);i.uniformMatrix4fv(this.addr,!1,e)}function Hy(i,t){i.uniform1iv(this.addr,t)}function Wy(i,t){i.uniform2iv(this.addr,t)}function Xy(i,t){i.uniform3iv(this.addr,t)}function qy(i,t){i.uniform4iv(this.addr,t)}function $y(i,t){i.uniform1uiv(this.addr,t)}function Yy(i,t){i.uniform2uiv(this.addr,t)}function Zy(i,t){i.uniform3uiv(this.addr,t)}function Jy(i,t){i.uniform4uiv(this.addr,t)}function Ky(i,t,e){let n=this.cache,s=t.length,r=Yl(e,s);un(n,r)||(i.uniform1iv(this.addr,r),dn(n,r));let a;this.type===i.SAMPLER_2D_SHADOW?a=Zl(op):a=ap;for(let o=0;o!==s;++o)e.setTexture2D(t[o]||a,r[o])}function jy(i,t,e){let n=this.cache,s=t.length,r=Yl(e,s);un(n,r)||(i.uniform1iv(this.addr,r),dn(n,r));for(let a=0;a!==s;++a)e.setTexture3D(t[a]||hp,r[a])}function Qy(i,t,e){let n=this.cache,s=t.length,r=Yl(e,s);un(n,r)||(i.uniform1iv(this.addr,r),dn(n,r));let a;this.type===i.SAMPLER_CUBE_SHADOW?a=Zl(lp):a=up;for(let o=0;o!==s;++o)e.setTextureCube(t[o]||a,r[o])}function tv(i,t,e){let n=this.cache,s=t.length,r=Yl(e,s);un(n,r)||(i.uniform1iv(this.addr,r),dn(n,r));for(let a=0;a!==s;++a)e.setTexture2DArray(t[a]||cp,r[a])}function ev(i){switch(i){case 5126:return Fy;case 35664:return Oy;case 35665:return By;case 35666:return ky;case 35674:return zy;case 35675:return Vy;case 35676:return Gy;case 5124:case 35670:return Hy;case 35667:case 35671:return Wy;case 35668:case 35672:return Xy;case 35669:case 35673:return qy;case 5125:return $y;case 36294:return Yy;case 36295:return Zy;case 36296:return Jy;case 35678:case 36198:case 36298:case 36306:case 35682:return Ky;case 35679:case 36299:case 36307:return jy;case 35680:case 36300:case 36308:case 36293:return Qy;case 36289:case 36303:case 36311:case 36292:return tv}}var Zh=class{constructor(t,e,n){this.id=t,this.addr=n,this.cache=[],this.type=e.type,this.setValue=Uy(e.type)}},Jh=class{constructor(t,e,n){this.id=t,this.addr=n,this.cache=[],this.type=e.type,this.size=e.size,this.setValue=ev(e.type)}},Kh=class{constructor(t){this.id=t,this.seq=[],this.map={}}setValue(t,e,n){let s=this.seq;for(let r=0,a=s.length;r!==a;++r){let o=s[r];o.setValue(t,e[o.id],n)}}},$h=/(\w+)(\])?(\[|\.)?/g;function Wf(i,t){i.seq.push(t),i.map[t.id]=t}function nv(i,t,e){let n=i.name,s=n.length;for($h.lastIndex=0;;){let r=$h.exec(n),a=$h.lastIndex,o=r[1],l=r[2]==="]",c=r[3];if(l&&(o=o|0),c===void 0||c==="["&&a+2===s){Wf(e,c===void 0?new Zh(o,i,t):new Jh(o,i,t));break}else{let d=e.map[o];d===void 0&&(d=new Kh(o),Wf(e,d)),e=d}}}var Vr=class{constructor(t,e){this.seq=[],this.map={};let n=t.getProgramParameter(e,t.ACTIVE_UNIFORMS);for(let a=0;a<n;++a){let o=t.getActiveUniform(e,a),l=t.getUniformLocation(e,o.name);nv(o,l,this)}let s=[],r=[];for(let a of this.seq)a.type===t.SAMPLER_2D_SHADOW||a.type===t.SAMPLER_CUBE_SHADOW||a.type===t.SAMPLER_2D_ARRAY_SHADOW?s.push(a):r.push(a);s.length>0&&(this.seq=s.concat(r))}setValue(t,e,n,s){let r=this.map[e];r!==void 0&&r.setValue(t,n,s)}setOptional(t,e,n){let s=e[n];s!==void 0&&this.setValue(t,n,s)}static upload(t,e,n,s){for(let r=0,a=e.length;r!==a;++r){let o=e[r],l=n[o.id];l.needsUpdate!==!1&&o.setValue(t,l.value,s)}}static seqWithValue(t,e){let n=[];for(let s=0,r=t.length;s!==r;++s){let a=t[s];a.id in e&&n.push(a)}return n}};function Xf(i,t,e){let n=i.createShader(t);return i.shaderSource(n,e),i.compileShader(n),n}var iv=37297,sv=0;function rv(i,t){let e=i.split(`
`),n=[],s=Math.max(t-6,0),r=Math.min(t+6,e.length);for(let a=s;a<r;a++){let o=a+1;n.push(`${o===t?">":" "} ${o}: ${e[a]}`)}return n.join(`
`)}var qf=new Qt;function av(i){ge._getMatrix(qf,ge.workingColorSpace,i);let t=`mat3( ${qf.elements.map(e=>e.toFixed(4))} )`;switch(ge.getTransfer(i)){case ga:return[t,"LinearTransferOETF"];case Ee:return[t,"sRGBTransferOETF"];default:return $t("WebGLProgram: Unsupported color space: ",i),[t,"LinearTransferOETF"]}}function $f(i,t,e){let n=i.getShaderParameter(t,i.COMPILE_STATUS),r=(i.getShaderInfoLog(t)||"").trim();if(n&&r==="")return"";let a=/ERROR: 0:(\d+)/.exec(r);if(a){let o=parseInt(a[1]);return e.toUpperCase()+`

`+r+`

`+rv(i.getShaderSource(t),o)}else return r}function ov(i,t){let e=av(t);return[`vec4 ${i}( vec4 value ) {`,`	return ${e[1]}( vec4( ${e[0]} * value.rgb, value.a ) );`,"}"].join(`
`)}var lv={[fh]:"Linear",[ph]:"Reinhard",[mh]:"Cineon",[gh]:"ACESFilmic",[xh]:"AgX",[yh]:"Neutral",[_h]:"Custom"};function cv(i,t){let e=lv[t];return e===void 0?($t("WebGLProgram: Unsupported toneMapping:",t),"vec3 "+i+"( vec3 color ) { return LinearToneMapping( color ); }"):"vec3 "+i+"( vec3 color ) { return "+e+"ToneMapping( color ); }"}var Xl=new J;function hv(){ge.getLuminanceCoefficients(Xl);let i=Xl.x.toFixed(4),t=Xl.y.toFixed(4),e=Xl.z.toFixed(4);return["float luminance( const in vec3 rgb ) {",`	const vec3 weights = vec3( ${i}, ${t}, ${e} );`,"	return dot( weights, rgb );","}"].join(`
`)}function uv(i){return[i.extensionClipCullDistance?"#extension GL_ANGLE_clip_cull_distance : require":"",i.extensionMultiDraw?"#extension GL_ANGLE_multi_draw : require":""].filter(Va).join(`
`)}function dv(i){let t=[];for(let e in i){let n=i[e];n!==!1&&t.push("#define "+e+" "+n)}return t.join(`
`)}function fv(i,t){let e={},n=i.getProgramParameter(t,i.ACTIVE_ATTRIBUTES);for(let s=0;s<n;s++){let r=i.getActiveAttrib(t,s),a=r.name,o=1;r.type===i.FLOAT_MAT2&&(o=2),r.type===i.FLOAT_MAT3&&(o=3),r.type===i.FLOAT_MAT4&&(o=4),e[a]={type:r.type,location:i.getAttribLocation(t,a),locationSize:o}}return e}function Va(i){return i!==""}function Yf(i,t){let e=t.numSpotLightShadows+t.numSpotLightMaps-t.numSpotLightShadowsWithMaps;return i.replace(/NUM_SUN_LIGHTS/g,t.numSunLights).replace(/NUM_DIR_LIGHTS/g,t.numDirLights).replace(/NUM_SPOT_LIGHTS/g,t.numSpotLights).replace(/NUM_SPOT_LIGHT_MAPS/g,t.numSpotLightMaps).replace(/NUM_SPOT_LIGHT_COORDS/g,e).replace(/NUM_RECT_AREA_LIGHTS/g,t.numRectAreaLights).replace(/NUM_POINT_LIGHTS/g,t.numPointLights).replace(/NUM_HEMI_LIGHTS/g,t.numHemiLights).replace(/NUM_SUN_LIGHT_SHADOWS/g,t.numSunLightShadows).replace(/NUM_DIR_LIGHT_SHADOWS/g,t.numDirLightShadows).replace(/NUM_SPOT_LIGHT_SHADOWS_WITH_MAPS/g,t.numSpotLightShadowsWithMaps).replace(/NUM_SPOT_LIGHT_SHADOWS/g,t.numSpotLightShadows).replace(/NUM_POINT_LIGHT_SHADOWS/g,t.numPointLightShadows).replace(/NUM_LIGHT_PROBE_GRIDS/g,t.numLightProbeGrids)}function Zf(i,t){return i.replace(/NUM_CLIPPING_PLANES/g,t.numClippingPlanes).replace(/UNION_CLIPPING_PLANES/g,t.numClippingPlanes-t.numClipIntersection)}var pv=/^[ \t]*#include +<([\w\d./]+)>/gm;function jh(i){return i.replace(pv,mv)}function mv(i,t){let e=ce[t];if(e===void 0)throw new Error("THREE.WebGLProgram: Can not resolve #include <"+t+">");return jh(e)}var gv=/#pragma unroll_loop_start\s+for\s*\(\s*int\s+i\s*=\s*(\d+)\s*;\s*i\s*<\s*(\d+)\s*;\s*i\s*\+\+\s*\)\s*{([\s\S]+?)}\s+#pragma unroll_loop_end/g;function Jf(i){return i.replace(gv,_v)}function _v(i,t,e,n){let s="";for(let r=parseInt(t);r<parseInt(e);r++)s+=n.replace(/\[\s*i\s*\]/g,"[ "+r+" ]").replace(/UNROLLED_LOOP_INDEX/g,r);return s}function Kf(i){let t=`precision ${i.precision} float;
	precision ${i.precision} int;
	precision ${i.precision} sampler2D;
	precision ${i.precision} samplerCube;
	precision ${i.precision} sampler3D;
	precision ${i.precision} sampler2DArray;
	precision ${i.precision} sampler2DShadow;
	precision ${i.precision} samplerCubeShadow;
	precision ${i.precision} sampler2DArrayShadow;
	precision ${i.precision} isampler2D;
	precision ${i.precision} isampler3D;
	precision ${i.precision} isamplerCube;
	precision ${i.precision} isampler2DArray;
	precision ${i.precision} usampler2D;
	precision ${i.precision} usampler3D;
	precision ${i.precision} usamplerCube;
	precision ${i.precision} usampler2DArray;
	`;return i.precision==="highp"?t+=`
#define HIGH_PRECISION`:i.precision==="mediump"?t+=`
#define MEDIUM_PRECISION`:i.precision==="lowp"&&(t+=`
#define LOW_PRECISION`),t}var xv={[La]:"SHADOWMAP_TYPE_PCF",[Fr]:"SHADOWMAP_TYPE_VSM"};function yv(i){return xv[i.shadowMapType]||"SHADOWMAP_TYPE_BASIC"}var vv={[Br]:"ENVMAP_MODE_REFRACTION"};function Sv(i){return i.envMap===!1?"ENVMAP_MODE_REFLECTION":vv[i.envMapMode]||"ENVMAP_MODE_REFLECTION"}var Mv={[dh]:"ENVMAP_BLENDING_MULTIPLY",[ff]:"ENVMAP_BLENDING_MIX",[pf]:"ENVMAP_BLENDING_ADD"};function bv(i){return i.envMap===!1?"ENVMAP_BLENDING_NONE":Mv[i.combine]||"ENVMAP_BLENDING_NONE"}function wv(i,t,e,n){let s=i.getContext(),r=e.defines,a=e.vertexShader,o=e.fragmentShader,l=yv(e),c=e.envMapPMREM===!0?"ENVMAP_TYPE_PMREM":"ENVMAP_TYPE_CUBE",h=Sv(e),d=bv(e),u=uv(e),f=dv(r),x=s.createProgram(),w,m,p=e.glslVersion?"#version "+e.glslVersion+`
`:"";e.isRawShaderMaterial?(w=["#define SHADER_TYPE "+e.shaderType,"#define SHADER_NAME "+e.shaderName,f].filter(Va).join(`
`),w.length>0&&(w+=`
`),m=["#define SHADER_TYPE "+e.shaderType,"#define SHADER_NAME "+e.shaderName,f].filter(Va).join(`
`),m.length>0&&(m+=`
`)):(w=[Kf(e),"#define SHADER_TYPE "+e.shaderType,"#define SHADER_NAME "+e.shaderName,f,e.extensionClipCullDistance?"#define USE_CLIP_DISTANCE":"",e.batching?"#define USE_BATCHING":"",e.batchingColor?"#define USE_BATCHING_COLOR":"",e.instancing?"#define USE_INSTANCING":"",e.instancingColor?"#define USE_INSTANCING_COLOR":"",e.instancingMorph?"#define USE_INSTANCING_MORPH":"",e.useFog&&e.fog?"#define USE_FOG":"",e.useFog&&e.fogExp2?"#define FOG_EXP2":"",e.map?"#define USE_MAP":"",e.envMap?"#define USE_ENVMAP":"",e.envMap?"#define "+h:"",e.lightMap?"#define USE_LIGHTMAP":"",e.aoMap?"#define USE_AOMAP":"",e.bumpMap?"#define USE_BUMPMAP":"",e.normalMap?"#define USE_NORMALMAP":"",e.normalMapObjectSpace?"#define USE_NORMALMAP_OBJECTSPACE":"",e.normalMapTangentSpace?"#define USE_NORMALMAP_TANGENTSPACE":"",e.displacementMap?"#define USE_DISPLACEMENTMAP":"",e.emissiveMap?"#define USE_EMISSIVEMAP":"",e.anisotropy?"#define USE_ANISOTROPY":"",e.anisotropyMap?"#define USE_ANISOTROPYMAP":"",e.clearcoatMap?"#define USE_CLEARCOATMAP":"",e.clearcoatRoughnessMap?"#define USE_CLEARCOAT_ROUGHNESSMAP":"",e.clearcoatNormalMap?"#define USE_CLEARCOAT_NORMALMAP":"",e.diffuseRoughnessMap?"#define USE_DIFFUSE_ROUGHNESSMAP":"",e.iridescenceMap?"#define USE_IRIDESCENCEMAP":"",e.iridescenceThicknessMap?"#define USE_IRIDESCENCE_THICKNESSMAP":"",e.specularMap?"#define USE_SPECULARMAP":"",e.specularColorMap?"#define USE_SPECULAR_COLORMAP":"",e.specularIntensityMap?"#define USE_SPECULAR_INTENSITYMAP":"",e.roughnessMap?"#define USE_ROUGHNESSMAP":"",e.metalnessMap?"#define USE_METALNESSMAP":"",e.alphaMap?"#define USE_ALPHAMAP":"",e.alphaHash?"#define USE_ALPHAHASH":"",e.transmission?"#define USE_TRANSMISSION":"",e.transmissionMap?"#define USE_TRANSMISSIONMAP":"",e.thicknessMap?"#define USE_THICKNESSMAP":"",e.sheenColorMap?"#define USE_SHEEN_COLORMAP":"",e.sheenRoughnessMap?"#define USE_SHEEN_ROUGHNESSMAP":"",e.mapUv?"#define MAP_UV "+e.mapUv:"",e.alphaMapUv?"#define ALPHAMAP_UV "+e.alphaMapUv:"",e.lightMapUv?"#define LIGHTMAP_UV "+e.lightMapUv:"",e.aoMapUv?"#define AOMAP_UV "+e.aoMapUv:"",e.emissiveMapUv?"#define EMISSIVEMAP_UV "+e.emissiveMapUv:"",e.bumpMapUv?"#define BUMPMAP_UV "+e.bumpMapUv:"",e.normalMapUv?"#define NORMALMAP_UV "+e.normalMapUv:"",e.displacementMapUv?"#define DISPLACEMENTMAP_UV "+e.displacementMapUv:"",e.metalnessMapUv?"#define METALNESSMAP_UV "+e.metalnessMapUv:"",e.roughnessMapUv?"#define ROUGHNESSMAP_UV "+e.roughnessMapUv:"",e.anisotropyMapUv?"#define ANISOTROPYMAP_UV "+e.anisotropyMapUv:"",e.clearcoatMapUv?"#define CLEARCOATMAP_UV "+e.clearcoatMapUv:"",e.clearcoatNormalMapUv?"#define CLEARCOAT_NORMALMAP_UV "+e.clearcoatNormalMapUv:"",e.clearcoatRoughnessMapUv?"#define CLEARCOAT_ROUGHNESSMAP_UV "+e.clearcoatRoughnessMapUv:"",e.diffuseRoughnessMapUv?"#define DIFFUSE_ROUGHNESSMAP_UV "+e.diffuseRoughnessMapUv:"",e.iridescenceMapUv?"#define IRIDESCENCEMAP_UV "+e.iridescenceMapUv:"",e.iridescenceThicknessMapUv?"#define IRIDESCENCE_THICKNESSMAP_UV "+e.iridescenceThicknessMapUv:"",e.sheenColorMapUv?"#define SHEEN_COLORMAP_UV "+e.sheenColorMapUv:"",e.sheenRoughnessMapUv?"#define SHEEN_ROUGHNESSMAP_UV "+e.sheenRoughnessMapUv:"",e.specularMapUv?"#define SPECULARMAP_UV "+e.specularMapUv:"",e.specularColorMapUv?"#define SPECULAR_COLORMAP_UV "+e.specularColorMapUv:"",e.specularIntensityMapUv?"#define SPECULAR_INTENSITYMAP_UV "+e.specularIntensityMapUv:"",e.transmissionMapUv?"#define TRANSMISSIONMAP_UV "+e.transmissionMapUv:"",e.thicknessMapUv?"#define THICKNESSMAP_UV "+e.thicknessMapUv:"",e.vertexTangents&&e.flatShading===!1?"#define USE_TANGENT":"",e.vertexNormals?"#define HAS_NORMAL":"",e.vertexColors?"#define USE_COLOR":"",e.vertexAlphas?"#define USE_COLOR_ALPHA":"",e.vertexUv1s?"#define USE_UV1":"",e.vertexUv2s?"#define USE_UV2":"",e.vertexUv3s?"#define USE_UV3":"",e.pointsUvs?"#define USE_POINTS_UV":"",e.flatShading?"#define FLAT_SHADED":"",e.skinning?"#define USE_SKINNING":"",e.morphTargets?"#define USE_MORPHTARGETS":"",e.morphNormals&&e.flatShading===!1?"#define USE_MORPHNORMALS":"",e.morphColors?"#define USE_MORPHCOLORS":"",e.morphTargetsCount>0?"#define MORPHTARGETS_TEXTURE_STRIDE "+e.morphTextureStride:"",e.morphTargetsCount>0?"#define MORPHTARGETS_COUNT "+e.morphTargetsCount:"",e.doubleSided?"#define DOUBLE_SIDED":"",e.flipSided?"#define FLIP_SIDED":"",e.shadowMapEnabled?"#define USE_SHADOWMAP":"",e.shadowMapEnabled?"#define "+l:"",e.sizeAttenuation?"#define USE_SIZEATTENUATION":"",e.numLightProbes>0?"#define USE_LIGHT_PROBES":"",e.logarithmicDepthBuffer?"#define USE_LOGARITHMIC_DEPTH_BUFFER":"",e.reversedDepthBuffer?"#define USE_REVERSED_DEPTH_BUFFER":"","uniform mat4 modelMatrix;","uniform mat4 modelViewMatrix;","uniform mat4 projectionMatrix;","uniform mat4 viewMatrix;","uniform mat3 normalMatrix;","uniform vec3 cameraPosition;","uniform bool isOrthographic;","#ifdef USE_INSTANCING","	attribute mat4 instanceMatrix;","#endif","#ifdef USE_INSTANCING_COLOR","	attribute vec3 instanceColor;","#endif","#ifdef USE_INSTANCING_MORPH","	uniform sampler2D morphTexture;","#endif","attribute vec3 position;","attribute vec3 normal;","attribute vec2 uv;","#ifdef USE_UV1","	attribute vec2 uv1;","#endif","#ifdef USE_UV2","	attribute vec2 uv2;","#endif","#ifdef USE_UV3","	attribute vec2 uv3;","#endif","#ifdef USE_TANGENT","	attribute vec4 tangent;","#endif","#if defined( USE_COLOR_ALPHA )","	attribute vec4 color;","#elif defined( USE_COLOR )","	attribute vec3 color;","#endif","#ifdef USE_SKINNING","	attribute vec4 skinIndex;","	attribute vec4 skinWeight;","#endif",`
`].filter(Va).join(`
`),m=[Kf(e),"#define SHADER_TYPE "+e.shaderType,"#define SHADER_NAME "+e.shaderName,f,e.useFog&&e.fog?"#define USE_FOG":"",e.useFog&&e.fogExp2?"#define FOG_EXP2":"",e.alphaToCoverage?"#define ALPHA_TO_COVERAGE":"",e.map?"#define USE_MAP":"",e.matcap?"#define USE_MATCAP":"",e.envMap?"#define USE_ENVMAP":"",e.envMap?"#define "+c:"",e.envMap?"#define "+h:"",e.envMap?"#define "+d:"",e.envMapPMREM?"#define ENVMAP_MAX_LOD "+e.envMapMaxLod+".0":"",e.envMapPMREM?"#define ENVMAP_SIZE "+e.envMapSize+".0":"",e.lightMap?"#define USE_LIGHTMAP":"",e.aoMap?"#define USE_AOMAP":"",e.bumpMap?"#define USE_BUMPMAP":"",e.normalMap?"#define USE_NORMALMAP":"",e.normalMapObjectSpace?"#define USE_NORMALMAP_OBJECTSPACE":"",e.normalMapTangentSpace?"#define USE_NORMALMAP_TANGENTSPACE":"",e.packedNormalMap?"#define USE_PACKED_NORMALMAP":"",e.emissiveMap?"#define USE_EMISSIVEMAP":"",e.anisotropy?"#define USE_ANISOTROPY":"",e.anisotropyMap?"#define USE_ANISOTROPYMAP":"",e.clearcoat?"#define USE_CLEARCOAT":"",e.clearcoatMap?"#define USE_CLEARCOATMAP":"",e.clearcoatRoughnessMap?"#define USE_CLEARCOAT_ROUGHNESSMAP":"",e.clearcoatNormalMap?"#define USE_CLEARCOAT_NORMALMAP":"",e.diffuseRoughness?"#define USE_DIFFUSE_ROUGHNESS":"",e.diffuseRoughnessMap?"#define USE_DIFFUSE_ROUGHNESSMAP":"",e.dispersion?"#define USE_DISPERSION":"",e.retroreflection?"#define USE_RETROREFLECTION":"",e.iridescence?"#define USE_IRIDESCENCE":"",e.iridescenceMap?"#define USE_IRIDESCENCEMAP":"",e.iridescenceThicknessMap?"#define USE_IRIDESCENCE_THICKNESSMAP":"",e.specularMap?"#define USE_SPECULARMAP":"",e.specularColorMap?"#define USE_SPECULAR_COLORMAP":"",e.specularIntensityMap?"#define USE_SPECULAR_INTENSITYMAP":"",e.roughnessMap?"#define USE_ROUGHNESSMAP":"",e.metalnessMap?"#define USE_METALNESSMAP":"",e.alphaMap?"#define USE_ALPHAMAP":"",e.alphaTest?"#define USE_ALPHATEST":"",e.alphaHash?"#define USE_ALPHAHASH":"",e.sheen?"#define USE_SHEEN":"",e.sheenColorMap?"#define USE_SHEEN_COLORMAP":"",e.sheenRoughnessMap?"#define USE_SHEEN_ROUGHNESSMAP":"",e.transmission?"#define USE_TRANSMISSION":"",e.transmissionMap?"#define USE_TRANSMISSIONMAP":"",e.thicknessMap?"#define USE_THICKNESSMAP":"",e.vertexTangents&&e.flatShading===!1?"#define USE_TANGENT":"",e.vertexColors||e.instancingColor?"#define USE_COLOR":"",e.vertexAlphas||e.batchingColor?"#define USE_COLOR_ALPHA":"",e.vertexUv1s?"#define USE_UV1":"",e.vertexUv2s?"#define USE_UV2":"",e.vertexUv3s?"#define USE_UV3":"",e.pointsUvs?"#define USE_POINTS_UV":"",e.gradientMap?"#define USE_GRADIENTMAP":"",e.flatShading?"#define FLAT_SHADED":"",e.doubleSided?"#define DOUBLE_SIDED":"",e.flipSided?"#define FLIP_SIDED":"",e.shadowMapEnabled?"#define USE_SHADOWMAP":"",e.shadowMapEnabled?"#define "+l:"",e.premultipliedAlpha?"#define PREMULTIPLIED_ALPHA":"",e.numLightProbes>0?"#define USE_LIGHT_PROBES":"",e.decodeVideoTexture?"#define DECODE_VIDEO_TEXTURE":"",e.decodeVideoTextureEmissive?"#define DECODE_VIDEO_TEXTURE_EMISSIVE":"",e.logarithmicDepthBuffer?"#define USE_LOGARITHMIC_DEPTH_BUFFER":"",e.reversedDepthBuffer?"#define USE_REVERSED_DEPTH_BUFFER":"","uniform mat4 viewMatrix;","uniform vec3 cameraPosition;","uniform bool isOrthographic;",e.toneMapping!==zi?"#define TONE_MAPPING":"",e.toneMapping!==zi?ce.tonemapping_pars_fragment:"",e.toneMapping!==zi?cv("toneMapping",e.toneMapping):"",e.dithering?"#define DITHERING":"",e.opaque?"#define OPAQUE":"",ce.colorspace_pars_fragment,ov("linearToOutputTexel",e.outputColorSpace),hv(),e.useDepthPacking?"#define DEPTH_PACKING "+e.depthPacking:"",`
`].filter(Va).join(`
`)),a=jh(a),a=Yf(a,e),a=Zf(a,e),o=jh(o),o=Yf(o,e),o=Zf(o,e),a=Jf(a),o=Jf(o),e.isRawShaderMaterial!==!0&&(p=`#version 300 es
`,w=[u,"#define attribute in","#define varying out","#define texture2D texture"].join(`
`)+`
`+w,m=["#define varying in",e.glslVersion===Lh?"":"layout(location = 0) out highp vec4 pc_fragColor;",e.glslVersion===Lh?"":"#define gl_FragColor pc_fragColor","#define gl_FragDepthEXT gl_FragDepth","#define texture2D texture","#define textureCube texture","#define texture2DProj textureProj","#define texture2DLodEXT textureLod","#define texture2DProjLodEXT textureProjLod","#define textureCubeLodEXT textureLod","#define texture2DGradEXT textureGrad","#define texture2DProjGradEXT textureProjGrad","#define textureCubeGradEXT textureGrad"].join(`
`)+`
`+m);let M=p+w+a,C=p+m+o,b=Xf(s,s.VERTEX_SHADER,M),I=Xf(s,s.FRAGMENT_SHADER,C);s.attachShader(x,b),s.attachShader(x,I),e.index0AttributeName!==void 0?s.bindAttribLocation(x,0,e.index0AttributeName):e.hasPositionAttribute===!0&&s.bindAttribLocation(x,0,"position"),s.linkProgram(x);function T(N){if(i.debug.checkShaderErrors){let L=s.getProgramInfoLog(x)||"",G=s.getShaderInfoLog(b)||"",H=s.getShaderInfoLog(I)||"",D=L.trim(),V=G.trim(),Y=H.trim(),k=!0,ct=!0;if(s.getProgramParameter(x,s.LINK_STATUS)===!1)if(k=!1,typeof i.debug.onShaderError=="function")i.debug.onShaderError(s,x,b,I);else{let Z=$f(s,b,"vertex"),j=$f(s,I,"fragment");jt("WebGLProgram: Shader Error "+s.getError()+" - VALIDATE_STATUS "+s.getProgramParameter(x,s.VALIDATE_STATUS)+`

Material Name: `+N.name+`
Material Type: `+N.type+`

Program Info Log: `+D+`
`+Z+`
`+j)}else D!==""?$t("WebGLProgram: Program Info Log:",D):(V===""||Y==="")&&(ct=!1);ct&&(N.diagnostics={runnable:k,programLog:D,vertexShader:{log:V,prefix:w},fragmentShader:{log:Y,prefix:m}})}s.deleteShader(b),s.deleteShader(I),_=new Vr(s,x),E=fv(s,x)}let _;this.getUniforms=function(){return _===void 0&&T(this),_};let E;this.getAttributes=function(){return E===void 0&&T(this),E};let z=e.rendererExtensionParallelShaderCompile===!1;return this.isReady=function(){return z===!1&&(z=s.getProgramParameter(x,iv)),z},this.destroy=function(){n.releaseStatesOfProgram(this),s.deleteProgram(x),this.program=void 0},this.type=e.shaderType,this.name=e.shaderName,this.id=sv++,this.cacheKey=t,this.usedTimes=1,this.program=x,this.vertexShader=b,this.fragmentShader=I,this}var Ev=0,Qh=class{constructor(){this.shaderCache=new Map,this.materialCache=new Map}update(t,e,n){let s=this._getShaderCacheForMaterial(t);return s.has(e)===!1&&(s.add(e),e.usedTimes++),s.has(n)===!1&&(s.add(n),n.usedTimes++),this}remove(t){let e=this.materialCache.get(t);for(let n of e)n.usedTimes--,n.usedTimes===0&&this.shaderCache.delete(n.code);return this.materialCache.delete(t),this}getVertexShaderStage(t){return this._getShaderStage(t.vertexShader)}getFragmentShaderStage(t){return this._getShaderStage(t.fragmentShader)}dispose(){this.shaderCache.clear(),this.materialCache.clear()}_getShaderCacheForMaterial(t){let e=this.materialCache,n=e.get(t);return n===void 0&&(n=new Set,e.set(t,n)),n}_getShaderStage(t){let e=this.shaderCache,n=e.get(t);return n===void 0&&(n=new tu(t),e.set(t,n)),n}},tu=class{constructor(t){this.id=Ev++,this.code=t,this.usedTimes=0}};function Tv(i){return i===Ps||i===Ba||i===ka}function Av(i,t,e,n,s,r){let a=new va,o=new Qh,l=new Set,c=[],h=new Map,d=n.logarithmicDepthBuffer,u={MeshDepthMaterial:"depth",MeshDistanceMaterial:"distance",MeshNormalMaterial:"normal",MeshBasicMaterial:"basic",MeshLambertMaterial:"lambert",MeshPhongMaterial:"phong",MeshToonMaterial:"toon",MeshStandardMaterial:"physical",MeshPhysicalMaterial:"physical",MeshMatcapMaterial:"matcap",LineBasicMaterial:"basic",LineDashedMaterial:"dashed",PointsMaterial:"points",ShadowMaterial:"shadow",SpriteMaterial:"sprite"};function f(_){return l.add(_),_===0?"uv":`uv${_}`}function x(_,E,z,N,L,G){let H=N.fog,D=L.geometry,V=_.isMeshStandardMaterial||_.isMeshLambertMaterial||_.isMeshPhongMaterial?N.environment:null,Y=_.isMeshStandardMaterial||_.isMeshLambertMaterial&&!_.envMap||_.isMeshPhongMaterial&&!_.envMap,k=t.get(_.envMap||V,Y),ct=u[_.type],Z=n.precision;_.precision!==null&&(Z=n.getMaxPrecision(_.precision),Z!==_.precision&&$t("WebGLProgram.getParameters:",_.precision,"not supported, using",Z,"instead."));let j=D.morphAttributes.position||D.morphAttributes.normal||D.morphAttributes.color,st=j!==void 0?j.length:0,dt=0;D.morphAttributes.position!==void 0&&(dt=1),D.morphAttributes.normal!==void 0&&(dt=2),D.morphAttributes.color!==void 0&&(dt=3);let ut,Q,mt,xt;if(ct){let Rt=Gi[ct];ut=Rt.vertexShader,Q=Rt.fragmentShader}else{ut=_.vertexShader,Q=_.fragmentShader;let Rt=o.getVertexShaderStage(_),ae=o.getFragmentShaderStage(_);o.update(_,Rt,ae),mt=Rt.id,xt=ae.id}let At=i.getRenderTarget(),Mt=i.state.buffers.depth.getReversed(),Ht=L.isInstancedMesh===!0,ie=L.isBatchedMesh===!0,Vt=!!_.map,he=!!_.matcap,oe=!!k,te=oe&&k.isPMREMTexture===!0,Ge=!!_.aoMap,Ue=!!_.lightMap,tn=!!_.bumpMap&&_.wireframe===!1,Pe=!!_.normalMap,_n=!!_.displacementMap,xe=!!_.emissiveMap,cn=!!_.metalnessMap,$e=!!_.roughnessMap,en=_.anisotropy>0,F=_.clearcoat>0,Ct=_.diffuseRoughness>0,qt=_.dispersion>0,se=_.retroreflectivity>0,bt=_.iridescence>0,Le=_.sheen>0,zt=_.transmission>0,Xt=en&&!!_.anisotropyMap,A=F&&!!_.clearcoatMap,y=F&&!!_.clearcoatNormalMap,W=F&&!!_.clearcoatRoughnessMap,ht=Ct&&!!_.diffuseRoughnessMap,at=bt&&!!_.iridescenceMap,_t=bt&&!!_.iridescenceThicknessMap,yt=Le&&!!_.sheenColorMap,et=Le&&!!_.sheenRoughnessMap,it=!!_.specularMap,pt=!!_.specularColorMap,U=!!_.specularIntensityMap,rt=zt&&!!_.transmissionMap,nt=zt&&!!_.thicknessMap,wt=!!_.gradientMap,gt=!!_.alphaMap,St=_.alphaTest>0,Gt=!!_.alphaHash,Zt=!!_.extensions,lt=zi;_.toneMapped&&(At===null||At.isXRRenderTarget===!0)&&(lt=i.toneMapping);let Ot=te?k.isCompressedCubeTexture?k.image[0].mipmaps:k.mipmaps:null,Jt={shaderID:ct,shaderType:_.type,shaderName:_.name,vertexShader:ut,fragmentShader:Q,defines:_.defines,customVertexShaderID:mt,customFragmentShaderID:xt,isRawShaderMaterial:_.isRawShaderMaterial===!0,glslVersion:_.glslVersion,precision:Z,batching:ie,batchingColor:ie&&L._colorsTexture!==null,instancing:Ht,instancingColor:Ht&&L.instanceColor!==null,instancingMorph:Ht&&L.morphTexture!==null,outputColorSpace:At===null?i.outputColorSpace:At.isXRRenderTarget===!0?At.texture.colorSpace:ge.workingColorSpace,alphaToCoverage:!!_.alphaToCoverage,map:Vt,matcap:he,envMap:oe,envMapMode:oe&&k.mapping,envMapPMREM:te,envMapMaxLod:te?Ot.length-1:null,envMapSize:te?Ot[0].width:null,aoMap:Ge,lightMap:Ue,bumpMap:tn,normalMap:Pe,displacementMap:_n,emissiveMap:xe,normalMapObjectSpace:Pe&&_.normalMapType===_f,normalMapTangentSpace:Pe&&_.normalMapType===Rh,packedNormalMap:Pe&&_.normalMapType===Rh&&Tv(_.normalMap.format),metalnessMap:cn,roughnessMap:$e,anisotropy:en,anisotropyMap:Xt,clearcoat:F,clearcoatMap:A,clearcoatNormalMap:y,clearcoatRoughnessMap:W,diffuseRoughness:Ct,diffuseRoughnessMap:ht,dispersion:qt,retroreflection:se,iridescence:bt,iridescenceMap:at,iridescenceThicknessMap:_t,sheen:Le,sheenColorMap:yt,sheenRoughnessMap:et,specularMap:it,specularColorMap:pt,specularIntensityMap:U,transmission:zt,transmissionMap:rt,thicknessMap:nt,gradientMap:wt,opaque:_.transparent===!1&&_.blending===Or&&_.alphaToCoverage===!1,alphaMap:gt,alphaTest:St,alphaHash:Gt,combine:_.combine,mapUv:Vt&&f(_.map.channel),aoMapUv:Ge&&f(_.aoMap.channel),lightMapUv:Ue&&f(_.lightMap.channel),bumpMapUv:tn&&f(_.bumpMap.channel),normalMapUv:Pe&&f(_.normalMap.channel),displacementMapUv:_n&&f(_.displacementMap.channel),emissiveMapUv:xe&&f(_.emissiveMap.channel),metalnessMapUv:cn&&f(_.metalnessMap.channel),roughnessMapUv:$e&&f(_.roughnessMap.channel),anisotropyMapUv:Xt&&f(_.anisotropyMap.channel),clearcoatMapUv:A&&f(_.clearcoatMap.channel),clearcoatNormalMapUv:y&&f(_.clearcoatNormalMap.channel),clearcoatRoughnessMapUv:W&&f(_.clearcoatRoughnessMap.channel),diffuseRoughnessMapUv:ht&&f(_.diffuseRoughnessMap.channel),iridescenceMapUv:at&&f(_.iridescenceMap.channel),iridescenceThicknessMapUv:_t&&f(_.iridescenceThicknessMap.channel),sheenColorMapUv:yt&&f(_.sheenColorMap.channel),sheenRoughnessMapUv:et&&f(_.sheenRoughnessMap.channel),specularMapUv:it&&f(_.specularMap.channel),specularColorMapUv:pt&&f(_.specularColorMap.channel),specularIntensityMapUv:U&&f(_.specularIntensityMap.channel),transmissionMapUv:rt&&f(_.transmissionMap.channel),thicknessMapUv:nt&&f(_.thicknessMap.channel),alphaMapUv:gt&&f(_.alphaMap.channel),vertexTangents:!!D.attributes.tangent&&(Pe||en),vertexNormals:!!D.attributes.normal,vertexColors:_.vertexColors,vertexAlphas:_.vertexColors===!0&&!!D.attributes.color&&D.attributes.color.itemSize===4,pointsUvs:L.isPoints===!0&&!!D.attributes.uv&&(Vt||gt),fog:!!H,useFog:_.fog===!0,fogExp2:!!H&&H.isFogExp2,flatShading:_.wireframe===!1&&(_.flatShading===!0||D.attributes.normal===void 0&&Pe===!1&&(_.isMeshLambertMaterial||_.isMeshPhongMaterial||_.isMeshStandardMaterial||_.isMeshPhysicalMaterial)),sizeAttenuation:_.sizeAttenuation===!0,logarithmicDepthBuffer:d,reversedDepthBuffer:Mt,skinning:L.isSkinnedMesh===!0,hasPositionAttribute:D.attributes.position!==void 0,morphTargets:D.morphAttributes.position!==void 0,morphNormals:D.morphAttributes.normal!==void 0,morphColors:D.morphAttributes.color!==void 0,morphTargetsCount:st,morphTextureStride:dt,numSunLights:E.sun.length,numDirLights:E.directional.length,numPointLights:E.point.length,numSpotLights:E.spot.length,numSpotLightMaps:E.spotLightMap.length,numRectAreaLights:E.rectArea.length,numHemiLights:E.hemi.length,numSunLightShadows:E.sunShadowMap.length,numDirLightShadows:E.directionalShadowMap.length,numPointLightShadows:E.pointShadowMap.length,numSpotLightShadows:E.spotShadowMap.length,numSpotLightShadowsWithMaps:E.numSpotLightShadowsWithMaps,numLightProbes:E.numLightProbes,numLightProbeGrids:G.filter(Rt=>Rt.texture!==null).length,numClippingPlanes:r.numPlanes,numClipIntersection:r.numIntersection,dithering:_.dithering,shadowMapEnabled:i.shadowMap.enabled&&z.length>0,shadowMapType:i.shadowMap.type,toneMapping:lt,decodeVideoTexture:Vt&&_.map.isVideoTexture===!0&&ge.getTransfer(_.map.colorSpace)===Ee,decodeVideoTextureEmissive:xe&&_.emissiveMap.isVideoTexture===!0&&ge.getTransfer(_.emissiveMap.colorSpace)===Ee,premultipliedAlpha:_.premultipliedAlpha,doubleSided:_.side===ki,flipSided:_.side===Fn,useDepthPacking:_.depthPacking>=0,depthPacking:_.depthPacking||0,index0AttributeName:_.index0AttributeName,extensionClipCullDistance:Zt&&_.extensions.clipCullDistance===!0&&e.has("WEBGL_clip_cull_distance"),extensionMultiDraw:(Zt&&_.extensions.multiDraw===!0||ie)&&e.has("WEBGL_multi_draw"),rendererExtensionParallelShaderCompile:e.has("KHR_parallel_shader_compile"),customProgramCacheKey:_.customProgramCacheKey()};return Jt.vertexUv1s=l.has(1),Jt.vertexUv2s=l.has(2),Jt.vertexUv3s=l.has(3),l.clear(),Jt}function w(_){let E=[];if(_.shaderID?E.push(_.shaderID):(E.push(_.customVertexShaderID),E.push(_.customFragmentShaderID)),_.defines!==void 0)for(let z in _.defines)E.push(z),E.push(_.defines[z]);return _.isRawShaderMaterial===!1&&(m(E,_),p(E,_),E.push(i.outputColorSpace)),E.push(_.customProgramCacheKey),E.join()}function m(_,E){_.push(E.precision),_.push(E.outputColorSpace),_.push(E.envMapMode),_.push(E.envMapPMREM),_.push(E.envMapMaxLod),_.push(E.envMapSize),_.push(E.mapUv),_.push(E.alphaMapUv),_.push(E.lightMapUv),_.push(E.aoMapUv),_.push(E.bumpMapUv),_.push(E.normalMapUv),_.push(E.displacementMapUv),_.push(E.emissiveMapUv),_.push(E.metalnessMapUv),_.push(E.roughnessMapUv),_.push(E.anisotropyMapUv),_.push(E.clearcoatMapUv),_.push(E.clearcoatNormalMapUv),_.push(E.clearcoatRoughnessMapUv),_.push(E.diffuseRoughnessMapUv),_.push(E.iridescenceMapUv),_.push(E.iridescenceThicknessMapUv),_.push(E.sheenColorMapUv),_.push(E.sheenRoughnessMapUv),_.push(E.specularMapUv),_.push(E.specularColorMapUv),_.push(E.specularIntensityMapUv),_.push(E.transmissionMapUv),_.push(E.thicknessMapUv),_.push(E.combine),_.push(E.fogExp2),_.push(E.sizeAttenuation),_.push(E.morphTargetsCount),_.push(E.numSunLights),_.push(E.numDirLights),_.push(E.numPointLights),_.push(E.numSpotLights),_.push(E.numSpotLightMaps),_.push(E.numHemiLights),_.push(E.numRectAreaLights),_.push(E.numSunLightShadows),_.push(E.numDirLightShadows),_.push(E.numPointLightShadows),_.push(E.numSpotLightShadows),_.push(E.numSpotLightShadowsWithMaps),_.push(E.numLightProbes),_.push(E.numLightProbeGrids),_.push(E.shadowMapType),_.push(E.toneMapping),_.push(E.numClippingPlanes),_.push(E.numClipIntersection),_.push(E.depthPacking)}function p(_,E){a.disableAll(),E.instancing&&a.enable(0),E.instancingColor&&a.enable(1),E.instancingMorph&&a.enable(2),E.matcap&&a.enable(3),E.envMap&&a.enable(4),E.normalMapObjectSpace&&a.enable(5),E.normalMapTangentSpace&&a.enable(6),E.clearcoat&&a.enable(7),E.iridescence&&a.enable(8),E.alphaTest&&a.enable(9),E.vertexColors&&a.enable(10),E.vertexAlphas&&a.enable(11),E.vertexUv1s&&a.enable(12),E.vertexUv2s&&a.enable(13),E.vertexUv3s&&a.enable(14),E.vertexTangents&&a.enable(15),E.anisotropy&&a.enable(16),E.alphaHash&&a.enable(17),E.batching&&a.enable(18),E.dispersion&&a.enable(19),E.retroreflection&&a.enable(24),E.diffuseRoughness&&a.enable(25),E.batchingColor&&a.enable(20),E.gradientMap&&a.enable(21),E.packedNormalMap&&a.enable(22),E.vertexNormals&&a.enable(23),_.push(a.mask),a.disableAll(),E.fog&&a.enable(0),E.useFog&&a.enable(1),E.flatShading&&a.enable(2),E.logarithmicDepthBuffer&&a.enable(3),E.reversedDepthBuffer&&a.enable(4),E.skinning&&a.enable(5),E.morphTargets&&a.enable(6),E.morphNormals&&a.enable(7),E.morphColors&&a.enable(8),E.premultipliedAlpha&&a.enable(9),E.shadowMapEnabled&&a.enable(10),E.doubleSided&&a.enable(11),E.flipSided&&a.enable(12),E.useDepthPacking&&a.enable(13),E.dithering&&a.enable(14),E.transmission&&a.enable(15),E.sheen&&a.enable(16),E.opaque&&a.enable(17),E.pointsUvs&&a.enable(18),E.decodeVideoTexture&&a.enable(19),E.decodeVideoTextureEmissive&&a.enable(20),E.alphaToCoverage&&a.enable(21),E.numLightProbeGrids>0&&a.enable(22),E.hasPositionAttribute&&a.enable(23),_.push(a.mask)}function M(_){let E=u[_.type],z;if(E){let N=Gi[E];z=Lf.clone(N.uniforms)}else z=_.uniforms;return z}function C(_,E){let z=h.get(E);return z!==void 0?++z.usedTimes:(z=new wv(i,E,_,s),c.push(z),h.set(E,z)),z}function b(_){if(--_.usedTimes===0){let E=c.indexOf(_);c[E]=c[c.length-1],c.pop(),h.delete(_.cacheKey),_.destroy()}}function I(_){o.remove(_)}function T(){o.dispose()}return{getParameters:x,getProgramCacheKey:w,getUniforms:M,acquireProgram:C,releaseProgram:b,releaseShaderCache:I,programs:c,dispose:T}}function Rv(){let i=new WeakMap;function t(a){return i.has(a)}function e(a){let o=i.get(a);return o===void 0&&(o={},i.set(a,o)),o}function n(a){i.delete(a)}function s(a,o,l){i.get(a)[o]=l}function r(){i=new WeakMap}return{has:t,get:e,remove:n,update:s,dispose:r}}function Cv(i,t){return i.groupOrder!==t.groupOrder?i.groupOrder-t.groupOrder:i.renderOrder!==t.renderOrder?i.renderOrder-t.renderOrder:i.material.id!==t.material.id?i.material.id-t.material.id:i.materialVariant!==t.materialVariant?i.materialVariant-t.materialVariant:i.z!==t.z?i.z-t.z:i.id-t.id}function jf(i,t){return i.groupOrder!==t.groupOrder?i.groupOrder-t.groupOrder:i.renderOrder!==t.renderOrder?i.renderOrder-t.renderOrder:i.z!==t.z?t.z-i.z:i.id-t.id}function Qf(){let i=[],t=0,e=[],n=[],s=[];function r(){t=0,e.length=0,n.length=0,s.length=0}function a(u){let f=0;return u.isInstancedMesh&&(f+=2),u.isSkinnedMesh&&(f+=1),f}function o(u,f,x,w,m,p){let M=i[t];return M===void 0?(M={id:u.id,object:u,geometry:f,material:x,materialVariant:a(u),groupOrder:w,renderOrder:u.renderOrder,z:m,group:p},i[t]=M):(M.id=u.id,M.object=u,M.geometry=f,M.material=x,M.materialVariant=a(u),M.groupOrder=w,M.renderOrder=u.renderOrder,M.z=m,M.group=p),t++,M}function l(u,f,x,w,m,p,M){M.reversedDepth===!0&&(m=-m);let C=o(u,f,x,w,m,p);x.transmission>0?n.push(C):x.transparent===!0?s.push(C):e.push(C)}function c(u,f,x,w,m,p){let M=o(u,f,x,w,m,p);x.transmission>0?n.unshift(M):x.transparent===!0?s.unshift(M):e.unshift(M)}function h(u,f){e.length>1&&e.sort(u||Cv),n.length>1&&n.sort(f||jf),s.length>1&&s.sort(f||jf)}function d(){for(let u=t,f=i.length;u<f;u++){let x=i[u];if(x.id===null)break;x.id=null,x.object=null,x.geometry=null,x.material=null,x.group=null}}return{opaque:e,transmissive:n,transparent:s,init:r,push:l,unshift:c,finish:d,sort:h}}function Pv(){let i=new WeakMap;function t(n,s){let r=i.get(n),a;return r===void 0?(a=new Qf,i.set(n,[a])):s>=r.length?(a=new Qf,r.push(a)):a=r[s],a}function e(){i=new WeakMap}return{get:t,dispose:e}}function Iv(){let i={};return{get:function(t){if(i[t.id]!==void 0)return i[t.id];let e;switch(t.type){case"SunLight":case"DirectionalLight":e={direction:new J,color:new ye};break;case"SpotLight":e={position:new J,direction:new J,color:new ye,distance:0,coneCos:0,penumbraCos:0,decay:0};break;case"PointLight":e={position:new J,color:new ye,distance:0,decay:0};break;case"HemisphereLight":e={direction:new J,skyColor:new ye,groundColor:new ye};break;case"RectAreaLight":e={color:new ye,position:new J,halfWidth:new J,halfHeight:new J};break}return i[t.id]=e,e}}}function Lv(){let i={};return{get:function(t){if(i[t.id]!==void 0)return i[t.id];let e;switch(t.type){case"SunLight":case"DirectionalLight":e={shadowIntensity:1,shadowBias:0,shadowNormalBias:0,shadowRadius:1,shadowMapSize:new re};break;case"SpotLight":e={shadowIntensity:1,shadowBias:0,shadowNormalBias:0,shadowRadius:1,shadowMapSize:new re};break;case"PointLight":e={shadowIntensity:1,shadowBias:0,shadowNormalBias:0,shadowRadius:1,shadowMapSize:new re,shadowCameraNear:1,shadowCameraFar:1e3};break}return i[t.id]=e,e}}}var Dv=0;function Nv(i,t){return(t.castShadow?2:0)-(i.castShadow?2:0)+(t.map?1:0)-(i.map?1:0)}function Uv(i){let t=new Iv,e=Lv(),n={version:0,hash:{sunLength:-1,directionalLength:-1,pointLength:-1,spotLength:-1,rectAreaLength:-1,hemiLength:-1,numSunShadows:-1,numDirectionalShadows:-1,numPointShadows:-1,numSpotShadows:-1,numSpotMaps:-1,numLightProbes:-1},ambient:[0,0,0],probe:[],sun:[],sunShadow:[],sunShadowMap:[],sunShadowMatrix:[],sunShadowCascade:[],directional:[],directionalShadow:[],directionalShadowMap:[],directionalShadowMatrix:[],spot:[],spotLightMap:[],spotShadow:[],spotShadowMap:[],spotLightMatrix:[],rectArea:[],rectAreaLTC1:null,rectAreaLTC2:null,point:[],pointShadow:[],pointShadowMap:[],pointShadowMatrix:[],hemi:[],numSpotLightShadowsWithMaps:0,numLightProbes:0};for(let c=0;c<9;c++)n.probe.push(new J);let s=new J,r=new Xe,a=new Xe;function o(c){let h=0,d=0,u=0;for(let G=0;G<9;G++)n.probe[G].set(0,0,0);let f=0,x=0,w=0,m=0,p=0,M=0,C=0,b=0,I=0,T=0,_=0,E=0,z=0,N=0;c.sort(Nv);for(let G=0,H=c.length;G<H;G++){let D=c[G],V=D.color,Y=D.intensity,k=D.distance,ct=null;if(D.shadow&&D.shadow.map&&(D.shadow.map.texture.format===Ps?ct=D.shadow.map.texture:ct=D.shadow.map.depthTexture||D.shadow.map.texture),D.isAmbientLight)h+=V.r*Y,d+=V.g*Y,u+=V.b*Y;else if(D.isLightProbe){for(let Z=0;Z<9;Z++)n.probe[Z].addScaledVector(D.sh.coefficients[Z],Y);N++}else if(D.isSunLight){let Z=t.get(D);if(Z.color.copy(D.color).multiplyScalar(D.intensity),D.castShadow){let j=D.shadow,st=e.get(D);st.shadowIntensity=j.intensity,st.shadowBias=j.bias,st.shadowNormalBias=j.normalBias,st.shadowRadius=j.radius,st.shadowMapSize.copy(j.mapSize).multiply(j.getFrameExtents()),n.sunShadow[x]=st,n.sunShadowMap[x]=ct;let dt=j.getViewportCount();for(let ut=0;ut<dt;ut++)n.sunShadowMatrix[w+ut]=j.getMatrix(ut),n.sunShadowCascade[w+ut]=j._cascadeData[ut];w+=dt,x++}n.sun[f]=Z,f++}else if(D.isDirectionalLight){let Z=t.get(D);if(Z.color.copy(D.color).multiplyScalar(D.intensity),D.castShadow){let j=D.shadow,st=e.get(D);st.shadowIntensity=j.intensity,st.shadowBias=j.bias,st.shadowNormalBias=j.normalBias,st.shadowRadius=j.radius,st.shadowMapSize=j.mapSize,n.directionalShadow[m]=st,n.directionalShadowMap[m]=ct,n.directionalShadowMatrix[m]=D.shadow.matrix,I++}n.directional[m]=Z,m++}else if(D.isSpotLight){let Z=t.get(D);Z.position.setFromMatrixPosition(D.matrixWorld),Z.color.copy(V).multiplyScalar(Y),Z.distance=k,Z.coneCos=Math.cos(D.angle),Z.penumbraCos=Math.cos(D.angle*(1-D.penumbra)),Z.decay=D.decay,n.spot[M]=Z;let j=D.shadow;if(D.map&&(n.spotLightMap[E]=D.map,E++,j.updateMatrices(D),D.castShadow&&z++),n.spotLightMatrix[M]=j.matrix,D.castShadow){let st=e.get(D);st.shadowIntensity=j.intensity,st.shadowBias=j.bias,st.shadowNormalBias=j.normalBias,st.shadowRadius=j.radius,st.shadowMapSize=j.mapSize,n.spotShadow[M]=st,n.spotShadowMap[M]=ct,_++}M++}else if(D.isRectAreaLight){let Z=t.get(D);Z.color.copy(V).multiplyScalar(Y),Z.halfWidth.set(D.width*.5,0,0),Z.halfHeight.set(0,D.height*.5,0),n.rectArea[C]=Z,C++}else if(D.isPointLight){let Z=t.get(D);if(Z.color.copy(D.color).multiplyScalar(D.intensity),Z.distance=D.distance,Z.decay=D.decay,D.castShadow){let j=D.shadow,st=e.get(D);st.shadowIntensity=j.intensity,st.shadowBias=j.bias,st.shadowNormalBias=j.normalBias,st.shadowRadius=j.radius,st.shadowMapSize=j.mapSize,st.shadowCameraNear=j.camera.near,st.shadowCameraFar=j.camera.far,n.pointShadow[p]=st,n.pointShadowMap[p]=ct,n.pointShadowMatrix[p]=D.shadow.matrix,T++}n.point[p]=Z,p++}else if(D.isHemisphereLight){let Z=t.get(D);Z.skyColor.copy(D.color).multiplyScalar(Y),Z.groundColor.copy(D.groundColor).multiplyScalar(Y),n.hemi[b]=Z,b++}}C>0&&(i.has("OES_texture_float_linear")===!0?(n.rectAreaLTC1=Lt.LTC_FLOAT_1,n.rectAreaLTC2=Lt.LTC_FLOAT_2):(n.rectAreaLTC1=Lt.LTC_HALF_1,n.rectAreaLTC2=Lt.LTC_HALF_2)),n.ambient[0]=h,n.ambient[1]=d,n.ambient[2]=u;let L=n.hash;(L.sunLength!==f||L.directionalLength!==m||L.pointLength!==p||L.spotLength!==M||L.rectAreaLength!==C||L.hemiLength!==b||L.numSunShadows!==x||L.numDirectionalShadows!==I||L.numPointShadows!==T||L.numSpotShadows!==_||L.numSpotMaps!==E||L.numLightProbes!==N)&&(n.sun.length=f,n.directional.length=m,n.spot.length=M,n.rectArea.length=C,n.point.length=p,n.hemi.length=b,n.sunShadow.length=x,n.sunShadowMap.length=x,n.sunShadowMatrix.length=w,n.sunShadowCascade.length=w,n.directionalShadow.length=I,n.directionalShadowMap.length=I,n.directionalShadowMatrix.length=I,n.pointShadow.length=T,n.pointShadowMap.length=T,n.pointShadowMatrix.length=T,n.spotShadow.length=_,n.spotShadowMap.length=_,n.spotLightMatrix.length=_+E-z,n.spotLightMap.length=E,n.numSpotLightShadowsWithMaps=z,n.numLightProbes=N,L.sunLength=f,L.directionalLength=m,L.pointLength=p,L.spotLength=M,L.rectAreaLength=C,L.hemiLength=b,L.numSunShadows=x,L.numDirectionalShadows=I,L.numPointShadows=T,L.numSpotShadows=_,L.numSpotMaps=E,L.numLightProbes=N,n.version=Dv++)}function l(c,h){let d=0,u=0,f=0,x=0,w=0,m=0,p=h.matrixWorldInverse;for(let M=0,C=c.length;M<C;M++){let b=c[M];if(b.isSunLight){let I=n.sun[d];I.direction.setFromMatrixPosition(b.matrixWorld),I.direction.transformDirection(p),d++}else if(b.isDirectionalLight){let I=n.directional[u];I.direction.setFromMatrixPosition(b.matrixWorld),s.setFromMatrixPosition(b.target.matrixWorld),I.direction.sub(s),I.direction.transformDirection(p),u++}else if(b.isSpotLight){let I=n.spot[x];I.position.setFromMatrixPosition(b.matrixWorld),I.position.applyMatrix4(p),I.direction.setFromMatrixPosition(b.matrixWorld),s.setFromMatrixPosition(b.target.matrixWorld),I.direction.sub(s),I.direction.transformDirection(p),x++}else if(b.isRectAreaLight){let I=n.rectArea[w];I.position.setFromMatrixPosition(b.matrixWorld),I.position.applyMatrix4(p),a.identity(),r.copy(b.matrixWorld),r.premultiply(p),a.extractRotation(r),I.halfWidth.set(b.width*.5,0,0),I.halfHeight.set(0,b.height*.5,0),I.halfWidth.applyMatrix4(a),I.halfHeight.applyMatrix4(a),w++}else if(b.isPointLight){let I=n.point[f];I.position.setFromMatrixPosition(b.matrixWorld),I.position.applyMatrix4(p),f++}else if(b.isHemisphereLight){let I=n.hemi[m];I.direction.setFromMatrixPosition(b.matrixWorld),I.direction.transformDirection(p),m++}}}return{setup:o,setupView:l,state:n}}function tp(i){let t=new Uv(i),e=[],n=[],s=[];function r(d){h.camera=d,e.length=0,n.length=0,s.length=0}function a(d){d.isLightProbeGrid?s.push(d):e.push(d)}function o(d){n.push(d)}function l(){t.setup(e),s.sort((d,u)=>d.priority-u.priority||d.id-u.id)}function c(d){t.setupView(e,d)}let h={lightsArray:e,shadowsArray:n,lightProbeGridArray:s,camera:null,lights:t,transmissionRenderTarget:{},textureUnits:0};return{init:r,state:h,setupLights:l,setupLightsView:c,pushLight:a,pushShadow:o}}function Fv(i){let t=new WeakMap;function e(s,r=0){let a=t.get(s),o;return a===void 0?(o=new tp(i),t.set(s,[o])):r>=a.length?(o=new tp(i),a.push(o)):o=a[r],o}function n(){t=new WeakMap}return{get:e,dispose:n}}var Ov=`void main() {
	gl_Position = vec4( position, 1.0 );
}`,Bv=`uniform sampler2D shadow_pass;
uniform vec2 resolution;
uniform float radius;
void main() {
	const float samples = float( VSM_SAMPLES );
	float mean = 0.0;
	float squared_mean = 0.0;
	float uvStride = samples <= 1.0 ? 0.0 : 2.0 / ( samples - 1.0 );
	float uvStart = samples <= 1.0 ? 0.0 : - 1.0;
	for ( float i = 0.0; i < samples; i ++ ) {
		float uvOffset = uvStart + i * uvStride;
		#ifdef HORIZONTAL_PASS
			vec2 distribution = texture2D( shadow_pass, ( gl_FragCoord.xy + vec2( uvOffset, 0.0 ) * radius ) / resolution ).rg;
			mean += distribution.x;
			squared_mean += distribution.y * distribution.y + distribution.x * distribution.x;
		#else
			float depth = texture2D( shadow_pass, ( gl_FragCoord.xy + vec2( 0.0, uvOffset ) * radius ) / resolution ).r;
			mean += depth;
			squared_mean += depth * depth;
		#endif
	}
	mean = mean / samples;
	squared_mean = squared_mean / samples;
	float std_dev = sqrt( max( 0.0, squared_mean - mean * mean ) );
	gl_FragColor = vec4( mean, std_dev, 0.0, 1.0 );
}`,kv=[new J(1,0,0),new J(-1,0,0),new J(0,1,0),new J(0,-1,0),new J(0,0,1),new J(0,0,-1)],zv=[new J(0,-1,0),new J(0,-1,0),new J(0,0,1),new J(0,0,-1),new J(0,-1,0),new J(0,-1,0)],ep=new Xe,za=new J,Yh=new J;function Vv(i,t,e){let n=new Ws,s=new re,r=new re,a=new qe,o=new Wo,l=new Xo,c={},h=e.maxTextureSize,d={[Cs]:Fn,[Fn]:Cs,[ki]:ki},u=new Bi({defines:{VSM_SAMPLES:8},uniforms:{shadow_pass:{value:null},resolution:{value:new re},radius:{value:4}},vertexShader:Ov,fragmentShader:Bv}),f=u.clone();f.defines.HORIZONTAL_PASS=1;let x=new ci;x.setAttribute("position",new Zn(new Float32Array([-1,-1,.5,3,-1,.5,-1,3,.5]),3));let w=new Oi(x,u),m=this;this.enabled=!1,this.autoUpdate=!0,this.needsUpdate=!1,this.type=La;let p=this.type;this.render=function(T,_,E){if(m.enabled===!1||m.autoUpdate===!1&&m.needsUpdate===!1||T.length===0)return;this.type===$d&&($t("WebGLShadowMap: PCFSoftShadowMap has been removed. Using PCFShadowMap instead."),this.type=La);let z=i.getRenderTarget(),N=i.getActiveCubeFace(),L=i.getActiveMipmapLevel(),G=i.state;G.setBlending(Xs),G.buffers.depth.getReversed()===!0?G.buffers.color.setClear(0,0,0,0):G.buffers.color.setClear(1,1,1,1),G.buffers.depth.setTest(!0),G.setScissorTest(!1);let H=p!==this.type;H&&_.traverse(function(D){D.material&&(Array.isArray(D.material)?D.material.forEach(V=>V.needsUpdate=!0):D.material.needsUpdate=!0)});for(let D=0,V=T.length;D<V;D++){let Y=T[D],k=Y.shadow;if(k===void 0){$t("WebGLShadowMap:",Y,"has no shadow.");continue}if(k.autoUpdate===!1&&k.needsUpdate===!1)continue;s.copy(k.mapSize);let ct=k.getFrameExtents();s.multiply(ct),r.copy(k.mapSize),(s.x>h||s.y>h)&&(s.x>h&&(r.x=Math.floor(h/ct.x),s.x=r.x*ct.x,k.mapSize.x=r.x),s.y>h&&(r.y=Math.floor(h/ct.y),s.y=r.y*ct.y,k.mapSize.y=r.y));let Z=i.state.buffers.depth.getReversed();if(k.camera._reversedDepth=Z,k.map===null||H===!0){if(k.map!==null&&(k.map.depthTexture!==null&&(k.map.depthTexture.dispose(),k.map.depthTexture=null),k.map.dispose()),this.type===Fr){if(Y.isPointLight){$t("WebGLShadowMap: VSM shadow maps are not supported for PointLights. Use PCF or BasicShadowMap instead.");continue}k.map=new Kn(s.x,s.y,{format:Ps,type:Mi,minFilter:Un,magFilter:Un,generateMipmaps:!1}),k.map.texture.name=Y.name+".shadowMap",k.map.depthTexture=new ns(s.x,s.y,Si),k.map.depthTexture.name=Y.name+".shadowMapDepth",k.map.depthTexture.format=es,k.map.depthTexture.compareFunction=null,k.map.depthTexture.minFilter=bn,k.map.depthTexture.magFilter=bn}else Y.isPointLight?(k.map=new Ga(s.x),k.map.depthTexture=new Ta(s.x,vi)):(k.map=new Kn(s.x,s.y),k.map.depthTexture=new ns(s.x,s.y,vi)),k.map.depthTexture.name=Y.name+".shadowMap",k.map.depthTexture.format=es,this.type===La?(k.map.depthTexture.compareFunction=Z?Ph:Ch,k.map.depthTexture.minFilter=Un,k.map.depthTexture.magFilter=Un):(k.map.depthTexture.compareFunction=null,k.map.depthTexture.minFilter=bn,k.map.depthTexture.magFilter=bn);k.camera.updateProjectionMatrix()}k.map.isWebGLCubeRenderTarget!==!0&&(k.map.width!==s.x||k.map.height!==s.y)&&k.map.setSize(s.x,s.y);let j=k.map.isWebGLCubeRenderTarget?6:k.getViewportCount();Y.isPointLight!==!0&&k.updateMatrices(Y,E);let st=(k.camera.layers.mask&4294967294)!==0?k.camera.layers:E.layers;for(let dt=0;dt<j;dt++){let ut=k.getCamera(dt);if(Y.isPointLight){let Q=k.camera,mt=k.matrix,xt=Y.distance||Q.far;xt!==Q.far&&(Q.far=xt,Q.updateProjectionMatrix()),za.setFromMatrixPosition(Y.matrixWorld),Q.position.copy(za),Yh.copy(Q.position),Yh.add(kv[dt]),Q.up.copy(zv[dt]),Q.lookAt(Yh),Q.updateMatrixWorld(),mt.makeTranslation(-za.x,-za.y,-za.z),ep.multiplyMatrices(Q.projectionMatrix,Q.matrixWorldInverse),k._frustum.setFromProjectionMatrix(ep,Q.coordinateSystem,Q.reversedDepth)}if(k.map.isWebGLCubeRenderTarget)i.setRenderTarget(k.map,dt),i.clear();else{dt===0&&(i.setRenderTarget(k.map),i.clear());let Q=k.getViewport(dt);a.set(r.x*Q.x,r.y*Q.y,r.x*Q.z,r.y*Q.w),G.viewport(a)}n=k.getFrustum(dt),b(_,E,ut,Y,st,this.type)}k.isPointLightShadow!==!0&&this.type===Fr&&M(k,E),k.needsUpdate=!1}p=this.type,m.needsUpdate=!1,i.setRenderTarget(z,N,L)};function M(T,_){let E=t.update(w);u.defines.VSM_SAMPLES!==T.blurSamples&&(u.defines.VSM_SAMPLES=T.blurSamples,f.defines.VSM_SAMPLES=T.blurSamples,u.needsUpdate=!0,f.needsUpdate=!0),T.mapPass===null?T.mapPass=new Kn(s.x,s.y,{format:Ps,type:Mi}):(T.mapPass.width!==T.map.width||T.mapPass.height!==T.map.height)&&T.mapPass.setSize(T.map.width,T.map.height),u.uniforms.shadow_pass.value=T.map.depthTexture,u.uniforms.resolution.value.set(T.map.width,T.map.height),u.uniforms.radius.value=T.radius,i.setRenderTarget(T.mapPass),i.clear(),i.renderBufferDirect(_,null,E,u,w,null),f.uniforms.shadow_pass.value=T.mapPass.texture,f.uniforms.resolution.value.set(T.map.width,T.map.height),f.uniforms.radius.value=T.radius,i.setRenderTarget(T.map),i.clear(),i.renderBufferDirect(_,null,E,f,w,null)}function C(T,_,E,z){let N=null,L=E.isPointLight===!0?T.customDistanceMaterial:T.customDepthMaterial;if(L!==void 0)N=L;else if(N=E.isPointLight===!0?l:o,i.localClippingEnabled&&_.clipShadows===!0&&Array.isArray(_.clippingPlanes)&&_.clippingPlanes.length!==0||_.displacementMap&&_.displacementScale!==0||_.alphaMap&&_.alphaTest>0||_.map&&_.alphaTest>0||_.alphaToCoverage===!0){let G=N.uuid,H=_.uuid,D=c[G];D===void 0&&(D={},c[G]=D);let V=D[H];V===void 0&&(V=N.clone(),D[H]=V,_.addEventListener("dispose",I)),N=V}if(N.visible=_.visible,N.wireframe=_.wireframe,z===Fr?N.side=_.shadowSide!==null?_.shadowSide:_.side:N.side=_.shadowSide!==null?_.shadowSide:d[_.side],N.alphaMap=_.alphaMap,N.alphaTest=_.alphaToCoverage===!0?.5:_.alphaTest,N.map=_.map,N.clipShadows=_.clipShadows,N.clippingPlanes=_.clippingPlanes,N.clipIntersection=_.clipIntersection,N.displacementMap=_.displacementMap,N.displacementScale=_.displacementScale,N.displacementBias=_.displacementBias,N.wireframeLinewidth=_.wireframeLinewidth,N.linewidth=_.linewidth,E.isPointLight===!0&&N.isMeshDistanceMaterial===!0){let G=i.properties.get(N);G.light=E}return N}function b(T,_,E,z,N,L){if(T.visible===!1)return;if(T.layers.test(N)&&(T.isMesh||T.isLine||T.isPoints)&&(T.castShadow||T.receiveShadow&&L===Fr)&&(!T.frustumCulled||T.intersectsFrustum(n))){T.modelViewMatrix.multiplyMatrices(E.matrixWorldInverse,T.matrixWorld);let D=t.update(T),V=T.material;if(Array.isArray(V)){let Y=D.groups;for(let k=0,ct=Y.length;k<ct;k++){let Z=Y[k],j=V[Z.materialIndex];if(j&&j.visible){let st=C(T,j,z,L);T.onBeforeShadow(i,T,_,E,D,st,Z),i.renderBufferDirect(E,null,D,st,T,Z),T.onAfterShadow(i,T,_,E,D,st,Z)}}}else if(V.visible){let Y=C(T,V,z,L);T.onBeforeShadow(i,T,_,E,D,Y,null),i.renderBufferDirect(E,null,D,Y,T,null),T.onAfterShadow(i,T,_,E,D,Y,null)}}let H=T.children;for(let D=0,V=H.length;D<V;D++)b(H[D],_,E,z,N,L)}function I(T){T.target.removeEventListener("dispose",I);for(let E in c){let z=c[E],N=T.target.uuid;N in z&&(z[N].dispose(),delete z[N])}}}function Gv(i,t){function e(){let U=!1,rt=new qe,nt=null,wt=new qe(0,0,0,0);return{setMask:function(gt){nt!==gt&&!U&&(i.colorMask(gt,gt,gt,gt),nt=gt)},setLocked:function(gt){U=gt},setClear:function(gt,St,Gt,Zt,lt){lt===!0&&(gt*=Zt,St*=Zt,Gt*=Zt),rt.set(gt,St,Gt,Zt),wt.equals(rt)===!1&&(i.clearColor(gt,St,Gt,Zt),wt.copy(rt))},reset:function(){U=!1,nt=null,wt.set(-1,0,0,0)}}}function n(){let U=!1,rt=!1,nt=null,wt=null,gt=null;return{setReversed:function(St){if(rt!==St){let Gt=t.get("EXT_clip_control");St?Gt.clipControlEXT(Gt.LOWER_LEFT_EXT,Gt.ZERO_TO_ONE_EXT):Gt.clipControlEXT(Gt.LOWER_LEFT_EXT,Gt.NEGATIVE_ONE_TO_ONE_EXT),rt=St;let Zt=gt;gt=null,this.setClear(Zt)}},getReversed:function(){return rt},setTest:function(St){St?Mt(i.DEPTH_TEST):Ht(i.DEPTH_TEST)},setMask:function(St){nt!==St&&!U&&(i.depthMask(St),nt=St)},setFunc:function(St){if(rt&&(St=Rf[St]),wt!==St){switch(St){case Ao:i.depthFunc(i.NEVER);break;case Ro:i.depthFunc(i.ALWAYS);break;case Co:i.depthFunc(i.LESS);break;case Ar:i.depthFunc(i.LEQUAL);break;case Po:i.depthFunc(i.EQUAL);break;case Io:i.depthFunc(i.GEQUAL);break;case Lo:i.depthFunc(i.GREATER);break;case Do:i.depthFunc(i.NOTEQUAL);break;default:i.depthFunc(i.LEQUAL)}wt=St}},setLocked:function(St){U=St},setClear:function(St){gt!==St&&(gt=St,rt&&(St=1-St),i.clearDepth(St))},reset:function(){U=!1,nt=null,wt=null,gt=null,rt=!1}}}function s(){let U=!1,rt=null,nt=null,wt=null,gt=null,St=null,Gt=null,Zt=null,lt=null;return{setTest:function(Ot){U||(Ot?Mt(i.STENCIL_TEST):Ht(i.STENCIL_TEST))},setMask:function(Ot){rt!==Ot&&!U&&(i.stencilMask(Ot),rt=Ot)},setFunc:function(Ot,Jt,Rt){(nt!==Ot||wt!==Jt||gt!==Rt)&&(i.stencilFunc(Ot,Jt,Rt),nt=Ot,wt=Jt,gt=Rt)},setOp:function(Ot,Jt,Rt){(St!==Ot||Gt!==Jt||Zt!==Rt)&&(i.stencilOp(Ot,Jt,Rt),St=Ot,Gt=Jt,Zt=Rt)},setLocked:function(Ot){U=Ot},setClear:function(Ot){lt!==Ot&&(i.clearStencil(Ot),lt=Ot)},reset:function(){U=!1,rt=null,nt=null,wt=null,gt=null,St=null,Gt=null,Zt=null,lt=null}}}let r=new e,a=new n,o=new s,l={},c=new WeakMap,h={},d={},u={},f=new WeakMap,x=[],w=null,m=!1,p=null,M=null,C=null,b=null,I=null,T=null,_=null,E=new ye(0,0,0),z=0,N=!1,L=null,G=null,H=null,D=null,V=null,Y=i.getParameter(i.MAX_COMBINED_TEXTURE_IMAGE_UNITS),k=!1,ct=0,Z=i.getParameter(i.VERSION);Z.indexOf("WebGL")!==-1?(ct=parseFloat(/^WebGL (\d)/.exec(Z)[1]),k=ct>=1):Z.indexOf("OpenGL ES")!==-1&&(ct=parseFloat(/^OpenGL ES (\d)/.exec(Z)[1]),k=ct>=2);let j=null,st={},dt=i.getParameter(i.SCISSOR_BOX),ut=i.getParameter(i.VIEWPORT),Q=new qe().fromArray(dt),mt=new qe().fromArray(ut);function xt(U,rt,nt,wt){let gt=new Uint8Array(4),St=i.createTexture();i.bindTexture(U,St),i.texParameteri(U,i.TEXTURE_MIN_FILTER,i.NEAREST),i.texParameteri(U,i.TEXTURE_MAG_FILTER,i.NEAREST);for(let Gt=0;Gt<nt;Gt++)U===i.TEXTURE_3D||U===i.TEXTURE_2D_ARRAY?i.texImage3D(rt,0,i.RGBA,1,1,wt,0,i.RGBA,i.UNSIGNED_BYTE,gt):i.texImage2D(rt+Gt,0,i.RGBA,1,1,0,i.RGBA,i.UNSIGNED_BYTE,gt);return St}let At={};At[i.TEXTURE_2D]=xt(i.TEXTURE_2D,i.TEXTURE_2D,1),At[i.TEXTURE_CUBE_MAP]=xt(i.TEXTURE_CUBE_MAP,i.TEXTURE_CUBE_MAP_POSITIVE_X,6),At[i.TEXTURE_2D_ARRAY]=xt(i.TEXTURE_2D_ARRAY,i.TEXTURE_2D_ARRAY,1,1),At[i.TEXTURE_3D]=xt(i.TEXTURE_3D,i.TEXTURE_3D,1,1),r.setClear(0,0,0,1),a.setClear(1),o.setClear(0),Mt(i.DEPTH_TEST),a.setFunc(Ar),tn(!1),Pe(ah),Mt(i.CULL_FACE),Ge(Xs);function Mt(U){h[U]!==!0&&(i.enable(U),h[U]=!0)}function Ht(U){h[U]!==!1&&(i.disable(U),h[U]=!1)}function ie(U,rt){return u[U]!==rt?(i.bindFramebuffer(U,rt),u[U]=rt,U===i.DRAW_FRAMEBUFFER&&(u[i.FRAMEBUFFER]=rt),U===i.FRAMEBUFFER&&(u[i.DRAW_FRAMEBUFFER]=rt),!0):!1}function Vt(U,rt){let nt=x,wt=!1;if(U){nt=f.get(rt),nt===void 0&&(nt=[],f.set(rt,nt));let gt=U.textures;if(nt.length!==gt.length||nt[0]!==i.COLOR_ATTACHMENT0){for(let St=0,Gt=gt.length;St<Gt;St++)nt[St]=i.COLOR_ATTACHMENT0+St;nt.length=gt.length,wt=!0}}else nt[0]!==i.BACK&&(nt[0]=i.BACK,wt=!0);wt&&i.drawBuffers(nt)}function he(U){return w!==U?(i.useProgram(U),w=U,!0):!1}let oe={[qs]:i.FUNC_ADD,[Zd]:i.FUNC_SUBTRACT,[Jd]:i.FUNC_REVERSE_SUBTRACT};oe[Kd]=i.MIN,oe[jd]=i.MAX;let te={[Qd]:i.ZERO,[tf]:i.ONE,[ef]:i.SRC_COLOR,[hh]:i.SRC_ALPHA,[lf]:i.SRC_ALPHA_SATURATE,[af]:i.DST_COLOR,[sf]:i.DST_ALPHA,[nf]:i.ONE_MINUS_SRC_COLOR,[uh]:i.ONE_MINUS_SRC_ALPHA,[of]:i.ONE_MINUS_DST_COLOR,[rf]:i.ONE_MINUS_DST_ALPHA,[cf]:i.CONSTANT_COLOR,[hf]:i.ONE_MINUS_CONSTANT_COLOR,[uf]:i.CONSTANT_ALPHA,[df]:i.ONE_MINUS_CONSTANT_ALPHA};function Ge(U,rt,nt,wt,gt,St,Gt,Zt,lt,Ot){if(U===Xs){m===!0&&(Ht(i.BLEND),m=!1);return}if(m===!1&&(Mt(i.BLEND),m=!0),U!==Yd){if(U!==p||Ot!==N){if((M!==qs||I!==qs)&&(i.blendEquation(i.FUNC_ADD),M=qs,I=qs),Ot)switch(U){case Or:i.blendFuncSeparate(i.ONE,i.ONE_MINUS_SRC_ALPHA,i.ONE,i.ONE_MINUS_SRC_ALPHA);break;case oh:i.blendFunc(i.ONE,i.ONE);break;case lh:i.blendFuncSeparate(i.ZERO,i.ONE_MINUS_SRC_COLOR,i.ZERO,i.ONE);break;case ch:i.blendFuncSeparate(i.DST_COLOR,i.ONE_MINUS_SRC_ALPHA,i.ZERO,i.ONE);break;default:jt("WebGLState: Invalid blending: ",U);break}else switch(U){case Or:i.blendFuncSeparate(i.SRC_ALPHA,i.ONE_MINUS_SRC_ALPHA,i.ONE,i.ONE_MINUS_SRC_ALPHA);break;case oh:i.blendFuncSeparate(i.SRC_ALPHA,i.ONE,i.ONE,i.ONE);break;case lh:jt("WebGLState: SubtractiveBlending requires material.premultipliedAlpha = true");break;case ch:jt("WebGLState: MultiplyBlending requires material.premultipliedAlpha = true");break;default:jt("WebGLState: Invalid blending: ",U);break}C=null,b=null,T=null,_=null,E.set(0,0,0),z=0,p=U,N=Ot}return}gt=gt||rt,St=St||nt,Gt=Gt||wt,(rt!==M||gt!==I)&&(i.blendEquationSeparate(oe[rt],oe[gt]),M=rt,I=gt),(nt!==C||wt!==b||St!==T||Gt!==_)&&(i.blendFuncSeparate(te[nt],te[wt],te[St],te[Gt]),C=nt,b=wt,T=St,_=Gt),(Zt.equals(E)===!1||lt!==z)&&(i.blendColor(Zt.r,Zt.g,Zt.b,lt),E.copy(Zt),z=lt),p=U,N=!1}function Ue(U,rt){U.side===ki?Ht(i.CULL_FACE):Mt(i.CULL_FACE);let nt=U.side===Fn;rt&&(nt=!nt),tn(nt),U.blending===Or&&U.transparent===!1?Ge(Xs):Ge(U.blending,U.blendEquation,U.blendSrc,U.blendDst,U.blendEquationAlpha,U.blendSrcAlpha,U.blendDstAlpha,U.blendColor,U.blendAlpha,U.premultipliedAlpha),a.setFunc(U.depthFunc),a.setTest(U.depthTest),a.setMask(U.depthWrite),r.setMask(U.colorWrite);let wt=U.stencilWrite;o.setTest(wt),wt&&(o.setMask(U.stencilWriteMask),o.setFunc(U.stencilFunc,U.stencilRef,U.stencilFuncMask),o.setOp(U.stencilFail,U.stencilZFail,U.stencilZPass)),xe(U.polygonOffset,U.polygonOffsetFactor,U.polygonOffsetUnits),U.alphaToCoverage===!0?Mt(i.SAMPLE_ALPHA_TO_COVERAGE):Ht(i.SAMPLE_ALPHA_TO_COVERAGE)}function tn(U){L!==U&&(U?i.frontFace(i.CW):i.frontFace(i.CCW),L=U)}function Pe(U){U!==Xd?(Mt(i.CULL_FACE),U!==G&&(U===ah?i.cullFace(i.BACK):U===qd?i.cullFace(i.FRONT):i.cullFace(i.FRONT_AND_BACK))):Ht(i.CULL_FACE),G=U}function _n(U){U!==H&&(k&&i.lineWidth(U),H=U)}function xe(U,rt,nt){U?(Mt(i.POLYGON_OFFSET_FILL),(D!==rt||V!==nt)&&(D=rt,V=nt,a.getReversed()&&(rt=-rt,nt=-nt),i.polygonOffset(rt,nt))):Ht(i.POLYGON_OFFSET_FILL)}function cn(U){U?Mt(i.SCISSOR_TEST):Ht(i.SCISSOR_TEST)}function $e(U){U===void 0&&(U=i.TEXTURE0+Y-1),j!==U&&(i.activeTexture(U),j=U)}function en(U,rt,nt){nt===void 0&&(j===null?nt=i.TEXTURE0+Y-1:nt=j);let wt=st[nt];wt===void 0&&(wt={type:void 0,texture:void 0},st[nt]=wt),(wt.type!==U||wt.texture!==rt)&&(j!==nt&&(i.activeTexture(nt),j=nt),i.bindTexture(U,rt||At[U]),wt.type=U,wt.texture=rt)}function F(){let U=st[j];U!==void 0&&U.type!==void 0&&(i.bindTexture(U.type,null),U.type=void 0,U.texture=void 0)}function Ct(){try{i.compressedTexImage2D(...arguments)}catch(U){jt("WebGLState:",U)}}function qt(){try{i.compressedTexImage3D(...arguments)}catch(U){jt("WebGLState:",U)}}function se(){try{i.texSubImage2D(...arguments)}catch(U){jt("WebGLState:",U)}}function bt(){try{i.texSubImage3D(...arguments)}catch(U){jt("WebGLState:",U)}}function Le(){try{i.compressedTexSubImage2D(...arguments)}catch(U){jt("WebGLState:",U)}}function zt(){try{i.compressedTexSubImage3D(...arguments)}catch(U){jt("WebGLState:",U)}}function Xt(){try{i.texStorage2D(...arguments)}catch(U){jt("WebGLState:",U)}}function A(){try{i.texStorage3D(...arguments)}catch(U){jt("WebGLState:",U)}}function y(){try{i.texImage2D(...arguments)}catch(U){jt("WebGLState:",U)}}function W(){try{i.texImage3D(...arguments)}catch(U){jt("WebGLState:",U)}}function ht(U){return d[U]!==void 0?d[U]:i.getParameter(U)}function at(U,rt){d[U]!==rt&&(i.pixelStorei(U,rt),d[U]=rt)}function _t(U){Q.equals(U)===!1&&(i.scissor(U.x,U.y,U.z,U.w),Q.copy(U))}function yt(U){mt.equals(U)===!1&&(i.viewport(U.x,U.y,U.z,U.w),mt.copy(U))}function et(U,rt){let nt=c.get(rt);nt===void 0&&(nt=new WeakMap,c.set(rt,nt));let wt=nt.get(U);wt===void 0&&(wt=i.getUniformBlockIndex(rt,U.name),i.uniformBlockBinding(rt,wt,wt),nt.set(U,wt))}function it(U,rt,nt){let gt=c.get(rt).get(U);l[gt]!==nt&&(i.bindBufferBase(i.UNIFORM_BUFFER,gt,nt),l[gt]=nt)}function pt(){i.disable(i.BLEND),i.disable(i.CULL_FACE),i.disable(i.DEPTH_TEST),i.disable(i.POLYGON_OFFSET_FILL),i.disable(i.SCISSOR_TEST),i.disable(i.STENCIL_TEST),i.disable(i.SAMPLE_ALPHA_TO_COVERAGE),i.blendEquation(i.FUNC_ADD),i.blendFunc(i.ONE,i.ZERO),i.blendFuncSeparate(i.ONE,i.ZERO,i.ONE,i.ZERO),i.blendColor(0,0,0,0),i.colorMask(!0,!0,!0,!0),i.clearColor(0,0,0,0),i.depthMask(!0),i.depthFunc(i.LESS),a.setReversed(!1),i.clearDepth(1),i.stencilMask(4294967295),i.stencilFunc(i.ALWAYS,0,4294967295),i.stencilOp(i.KEEP,i.KEEP,i.KEEP),i.clearStencil(0),i.cullFace(i.BACK),i.frontFace(i.CCW),i.polygonOffset(0,0),i.activeTexture(i.TEXTURE0),i.bindFramebuffer(i.FRAMEBUFFER,null),i.bindFramebuffer(i.DRAW_FRAMEBUFFER,null),i.bindFramebuffer(i.READ_FRAMEBUFFER,null),i.useProgram(null),i.lineWidth(1),i.scissor(0,0,i.canvas.width,i.canvas.height),i.viewport(0,0,i.canvas.width,i.canvas.height),i.pixelStorei(i.PACK_ALIGNMENT,4),i.pixelStorei(i.UNPACK_ALIGNMENT,4),i.pixelStorei(i.UNPACK_FLIP_Y_WEBGL,!1),i.pixelStorei(i.UNPACK_PREMULTIPLY_ALPHA_WEBGL,!1),i.pixelStorei(i.UNPACK_COLORSPACE_CONVERSION_WEBGL,i.BROWSER_DEFAULT_WEBGL),i.pixelStorei(i.PACK_ROW_LENGTH,0),i.pixelStorei(i.PACK_SKIP_PIXELS,0),i.pixelStorei(i.PACK_SKIP_ROWS,0),i.pixelStorei(i.UNPACK_ROW_LENGTH,0),i.pixelStorei(i.UNPACK_IMAGE_HEIGHT,0),i.pixelStorei(i.UNPACK_SKIP_PIXELS,0),i.pixelStorei(i.UNPACK_SKIP_ROWS,0),i.pixelStorei(i.UNPACK_SKIP_IMAGES,0),h={},d={},j=null,st={},u={},l={},f=new WeakMap,x=[],w=null,m=!1,p=null,M=null,C=null,b=null,I=null,T=null,_=null,E=new ye(0,0,0),z=0,N=!1,L=null,G=null,H=null,D=null,V=null,Q.set(0,0,i.canvas.width,i.canvas.height),mt.set(0,0,i.canvas.width,i.canvas.height),r.reset(),a.reset(),o.reset()}return{buffers:{color:r,depth:a,stencil:o},enable:Mt,disable:Ht,bindFramebuffer:ie,drawBuffers:Vt,useProgram:he,setBlending:Ge,setMaterial:Ue,setFlipSided:tn,setCullFace:Pe,setLineWidth:_n,setPolygonOffset:xe,setScissorTest:cn,activeTexture:$e,bindTexture:en,unbindTexture:F,compressedTexImage2D:Ct,compressedTexImage3D:qt,texImage2D:y,texImage3D:W,pixelStorei:at,getParameter:ht,updateUBOMapping:et,uniformBlockBinding:it,texStorage2D:Xt,texStorage3D:A,texSubImage2D:se,texSubImage3D:bt,compressedTexSubImage2D:Le,compressedTexSubImage3D:zt,scissor:_t,viewport:yt,reset:pt}}function Hv(i,t,e,n,s,r,a){let o=t.has("WEBGL_multisampled_render_to_texture")?t.get("WEBGL_multisampled_render_to_texture"):null,l=typeof navigator>"u"?!1:/OculusBrowser/g.test(navigator.userAgent),c=new re,h=new WeakMap,d=new Set,u,f=new WeakMap,x=new Set,w=new FinalizationRegistry(A=>x.delete(A)),m=!1;try{m=typeof OffscreenCanvas<"u"&&new OffscreenCanvas(1,1).getContext("2d")!==null}catch{}function p(A,y){return m?new OffscreenCanvas(A,y):xa("canvas")}function M(A,y,W){let ht=1,at=Xt(A);if((at.width>W||at.height>W)&&(ht=W/Math.max(at.width,at.height)),ht<1)if(typeof HTMLImageElement<"u"&&A instanceof HTMLImageElement||typeof HTMLCanvasElement<"u"&&A instanceof HTMLCanvasElement||typeof ImageBitmap<"u"&&A instanceof ImageBitmap||typeof VideoFrame<"u"&&A instanceof VideoFrame){let _t=Math.floor(ht*at.width),yt=Math.floor(ht*at.height);u===void 0&&(u=p(_t,yt));let et=y?p(_t,yt):u;return et.width=_t,et.height=yt,et.getContext("2d").drawImage(A,0,0,_t,yt),$t("WebGLRenderer: Texture has been resized from ("+at.width+"x"+at.height+") to ("+_t+"x"+yt+")."),et}else return"data"in A&&$t("WebGLRenderer: Image in DataTexture is too big ("+at.width+"x"+at.height+")."),A;return A}function C(A){return A.generateMipmaps}function b(A){i.generateMipmap(A)}function I(A){return A.isWebGLCubeRenderTarget?i.TEXTURE_CUBE_MAP:A.isWebGL3DRenderTarget?i.TEXTURE_3D:A.isWebGLArrayRenderTarget||A.isCompressedArrayTexture?i.TEXTURE_2D_ARRAY:i.TEXTURE_2D}function T(A,y,W,ht,at,_t=!1){if(A!==null){if(i[A]!==void 0)return i[A];$t("WebGLRenderer: Attempt to use non-existing WebGL internal format '"+A+"'")}let yt;ht&&(yt=t.get("EXT_texture_norm16"),yt||$t("WebGLRenderer: Unable to use normalized textures without EXT_texture_norm16 extension"));let et=y;if(y===i.RED&&(W===i.FLOAT&&(et=i.R32F),W===i.HALF_FLOAT&&(et=i.R16F),W===i.UNSIGNED_BYTE&&(et=i.R8),W===i.UNSIGNED_SHORT&&yt&&(et=yt.R16_EXT),W===i.SHORT&&yt&&(et=yt.R16_SNORM_EXT)),y===i.RED_INTEGER&&(W===i.UNSIGNED_BYTE&&(et=i.R8UI),W===i.UNSIGNED_SHORT&&(et=i.R16UI),W===i.UNSIGNED_INT&&(et=i.R32UI),W===i.BYTE&&(et=i.R8I),W===i.SHORT&&(et=i.R16I),W===i.INT&&(et=i.R32I)),y===i.RG&&(W===i.FLOAT&&(et=i.RG32F),W===i.HALF_FLOAT&&(et=i.RG16F),W===i.UNSIGNED_BYTE&&(et=i.RG8),W===i.UNSIGNED_SHORT&&yt&&(et=yt.RG16_EXT),W===i.SHORT&&yt&&(et=yt.RG16_SNORM_EXT)),y===i.RG_INTEGER&&(W===i.UNSIGNED_BYTE&&(et=i.RG8UI),W===i.UNSIGNED_SHORT&&(et=i.RG16UI),W===i.UNSIGNED_INT&&(et=i.RG32UI),W===i.BYTE&&(et=i.RG8I),W===i.SHORT&&(et=i.RG16I),W===i.INT&&(et=i.RG32I)),y===i.RGB_INTEGER&&(W===i.UNSIGNED_BYTE&&(et=i.RGB8UI),W===i.UNSIGNED_SHORT&&(et=i.RGB16UI),W===i.UNSIGNED_INT&&(et=i.RGB32UI),W===i.BYTE&&(et=i.RGB8I),W===i.SHORT&&(et=i.RGB16I),W===i.INT&&(et=i.RGB32I)),y===i.RGBA_INTEGER&&(W===i.UNSIGNED_BYTE&&(et=i.RGBA8UI),W===i.UNSIGNED_SHORT&&(et=i.RGBA16UI),W===i.UNSIGNED_INT&&(et=i.RGBA32UI),W===i.BYTE&&(et=i.RGBA8I),W===i.SHORT&&(et=i.RGBA16I),W===i.INT&&(et=i.RGBA32I)),y===i.RGB&&(W===i.UNSIGNED_SHORT&&yt&&(et=yt.RGB16_EXT),W===i.SHORT&&yt&&(et=yt.RGB16_SNORM_EXT),W===i.UNSIGNED_INT_5_9_9_9_REV&&(et=i.RGB9_E5),W===i.UNSIGNED_INT_10F_11F_11F_REV&&(et=i.R11F_G11F_B10F)),y===i.RGBA){let it=_t?ga:ge.getTransfer(at);W===i.FLOAT&&(et=i.RGBA32F),W===i.HALF_FLOAT&&(et=i.RGBA16F),W===i.UNSIGNED_BYTE&&(et=it===Ee?i.SRGB8_ALPHA8:i.RGBA8),W===i.UNSIGNED_SHORT&&yt&&(et=yt.RGBA16_EXT),W===i.SHORT&&yt&&(et=yt.RGBA16_SNORM_EXT),W===i.UNSIGNED_SHORT_4_4_4_4&&(et=i.RGBA4),W===i.UNSIGNED_SHORT_5_5_5_1&&(et=i.RGB5_A1)}return(et===i.R16F||et===i.R32F||et===i.RG16F||et===i.RG32F||et===i.RGBA16F||et===i.RGBA32F)&&t.get("EXT_color_buffer_float"),et}function _(A,y){let W;return A?y===null||y===vi||y===Ys?W=i.DEPTH24_STENCIL8:y===Si?W=i.DEPTH32F_STENCIL8:y===kr&&(W=i.DEPTH24_STENCIL8,$t("DepthTexture: 16 bit depth attachment is not supported with stencil. Using 24-bit attachment.")):y===null||y===vi||y===Ys?W=i.DEPTH_COMPONENT24:y===Si?W=i.DEPTH_COMPONENT32F:y===kr&&(W=i.DEPTH_COMPONENT16),W}function E(A,y){return C(A)===!0||A.isFramebufferTexture&&A.minFilter!==bn&&A.minFilter!==Un?Math.log2(Math.max(y.width,y.height))+1:A.mipmaps.length>0?A.mipmaps.length:A.isCompressedTexture&&Array.isArray(A.image)?y.mipmaps.length:1}function z(A){let y=new WeakRef(A);n.get(A).__ref=y,x.add(y),w.register(A,y,y)}function N(A){let y=n.get(A).__ref;y!==void 0&&(x.delete(y),w.unregister(y))}function L(A){H(A.target)}function G(A){D(A.target)}function H(A){A.removeEventListener("dispose",L),N(A),Y(A),A.isVideoTexture&&h.delete(A),A.isHTMLTexture&&d.delete(A)}function D(A){A.removeEventListener("dispose",G),N(A),ct(A)}function V(){for(let A of x){let y=A.deref();y!==void 0&&(y.isRenderTarget===!0?D(y):H(y))}x.clear(),d.clear()}function Y(A){let y=n.get(A);if(y.__webglInit===void 0)return;let W=A.source,ht=f.get(W);if(ht){let at=ht[y.__cacheKey];at.usedTimes--,at.usedTimes===0&&k(A),Object.keys(ht).length===0&&f.delete(W)}n.remove(A)}function k(A){let y=n.get(A);i.deleteTexture(y.__webglTexture);let W=A.source,ht=f.get(W);delete ht[y.__cacheKey],a.memory.textures--}function ct(A){let y=n.get(A);y.__depthDisposeCallback&&y.__depthDisposeCallback();let W=A.depthTexture;if(W&&W.renderTarget===A&&H(W),A.isWebGLCubeRenderTarget)for(let at=0;at<6;at++){if(Array.isArray(y.__webglFramebuffer[at]))for(let _t=0;_t<y.__webglFramebuffer[at].length;_t++)i.deleteFramebuffer(y.__webglFramebuffer[at][_t]);else i.deleteFramebuffer(y.__webglFramebuffer[at]);y.__webglDepthbuffer&&i.deleteRenderbuffer(y.__webglDepthbuffer[at])}else{if(Array.isArray(y.__webglFramebuffer))for(let at=0;at<y.__webglFramebuffer.length;at++)i.deleteFramebuffer(y.__webglFramebuffer[at]);else i.deleteFramebuffer(y.__webglFramebuffer);if(y.__webglDepthbuffer&&i.deleteRenderbuffer(y.__webglDepthbuffer),y.__webglMultisampledFramebuffer&&i.deleteFramebuffer(y.__webglMultisampledFramebuffer),y.__webglColorRenderbuffer)for(let at=0;at<y.__webglColorRenderbuffer.length;at++)y.__webglColorRenderbuffer[at]&&i.deleteRenderbuffer(y.__webglColorRenderbuffer[at]);y.__webglDepthRenderbuffer&&i.deleteRenderbuffer(y.__webglDepthRenderbuffer)}let ht=A.textures;for(let at=0,_t=ht.length;at<_t;at++){let yt=n.get(ht[at]);yt.__webglTexture&&(i.deleteTexture(yt.__webglTexture),a.memory.textures--),n.remove(ht[at])}n.remove(A)}let Z=0;function j(){Z=0}function st(){return Z}function dt(A){Z=A}function ut(){let A=Z;return A>=s.maxTextures&&$t("WebGLTextures: Trying to use "+(A+1)+" texture units while this GPU supports only "+s.maxTextures),Z+=1,A}function Q(A){let y=[];return y.push(A.wrapS),y.push(A.wrapT),y.push(A.wrapR||0),y.push(A.magFilter),y.push(A.minFilter),y.push(A.anisotropy),y.push(A.internalFormat),y.push(A.format),y.push(A.type),y.push(A.generateMipmaps),y.push(A.mipmapsAutoUpdate),y.push(A.premultiplyAlpha),y.push(A.flipY),y.push(A.unpackAlignment),y.push(A.colorSpace),y.join()}function mt(A,y){let W=n.get(A);if(A.isVideoTexture&&Le(A),A.isRenderTargetTexture===!1&&A.isExternalTexture!==!0&&A.version>0&&W.__version!==A.version){let ht=A.image;if(ht===null)$t("WebGLRenderer: Texture marked for update but no image data found.");else if(ht.complete===!1)$t("WebGLRenderer: Texture marked for update but image is incomplete");else{Ue(W,A,y);return}}else A.isExternalTexture&&(W.__webglTexture=A.sourceTexture?A.sourceTexture:null);e.bindTexture(i.TEXTURE_2D,W.__webglTexture,i.TEXTURE0+y)}function xt(A,y){let W=n.get(A);if(A.isRenderTargetTexture===!1&&A.version>0&&W.__version!==A.version){Ue(W,A,y);return}else A.isExternalTexture&&(W.__webglTexture=A.sourceTexture?A.sourceTexture:null);e.bindTexture(i.TEXTURE_2D_ARRAY,W.__webglTexture,i.TEXTURE0+y)}function At(A,y){let W=n.get(A);if(A.isRenderTargetTexture===!1&&A.version>0&&W.__version!==A.version){Ue(W,A,y);return}e.bindTexture(i.TEXTURE_3D,W.__webglTexture,i.TEXTURE0+y)}function Mt(A,y){let W=n.get(A);if(A.version>0&&W.__version!==A.version){tn(W,A,y);return}e.bindTexture(i.TEXTURE_CUBE_MAP,W.__webglTexture,i.TEXTURE0+y)}let Ht={[No]:i.REPEAT,[Fi]:i.CLAMP_TO_EDGE,[Uo]:i.MIRRORED_REPEAT},ie={[bn]:i.NEAREST,[mf]:i.NEAREST_MIPMAP_NEAREST,[Da]:i.NEAREST_MIPMAP_LINEAR,[Un]:i.LINEAR,[ol]:i.LINEAR_MIPMAP_NEAREST,[is]:i.LINEAR_MIPMAP_LINEAR},Vt={[yf]:i.NEVER,[Ih]:i.ALWAYS,[vf]:i.LESS,[Ch]:i.LEQUAL,[Sf]:i.EQUAL,[Ph]:i.GEQUAL,[Mf]:i.GREATER,[bf]:i.NOTEQUAL};function he(A,y){if(y.type===Si&&t.has("OES_texture_float_linear")===!1&&(y.magFilter===Un||y.magFilter===ol||y.magFilter===Da||y.magFilter===is||y.minFilter===Un||y.minFilter===ol||y.minFilter===Da||y.minFilter===is)&&$t("WebGLRenderer: Unable to use linear filtering with floating point textures. OES_texture_float_linear not supported on this device."),i.texParameteri(A,i.TEXTURE_WRAP_S,Ht[y.wrapS]),i.texParameteri(A,i.TEXTURE_WRAP_T,Ht[y.wrapT]),(A===i.TEXTURE_3D||A===i.TEXTURE_2D_ARRAY)&&i.texParameteri(A,i.TEXTURE_WRAP_R,Ht[y.wrapR]),i.texParameteri(A,i.TEXTURE_MAG_FILTER,ie[y.magFilter]),i.texParameteri(A,i.TEXTURE_MIN_FILTER,ie[y.minFilter]),y.compareFunction&&(i.texParameteri(A,i.TEXTURE_COMPARE_MODE,i.COMPARE_REF_TO_TEXTURE),i.texParameteri(A,i.TEXTURE_COMPARE_FUNC,Vt[y.compareFunction])),t.has("EXT_texture_filter_anisotropic")===!0){if(y.magFilter===bn||y.minFilter!==Da&&y.minFilter!==is||y.type===Si&&t.has("OES_texture_float_linear")===!1)return;if(y.anisotropy>1||n.get(y).__currentAnisotropy){let W=t.get("EXT_texture_filter_anisotropic");i.texParameterf(A,W.TEXTURE_MAX_ANISOTROPY_EXT,Math.min(y.anisotropy,s.getMaxAnisotropy())),n.get(y).__currentAnisotropy=y.anisotropy}}}function oe(A,y){let W=!1;A.__webglInit===void 0&&(A.__webglInit=!0,y.addEventListener("dispose",L),z(y));let ht=y.source,at=f.get(ht);at===void 0&&(at={},f.set(ht,at));let _t=Q(y);if(_t!==A.__cacheKey){at[_t]===void 0&&(at[_t]={texture:i.createTexture(),usedTimes:0},a.memory.textures++,W=!0),at[_t].usedTimes++;let yt=at[A.__cacheKey];yt!==void 0&&(at[A.__cacheKey].usedTimes--,yt.usedTimes===0&&k(y)),A.__cacheKey=_t,A.__webglTexture=at[_t].texture}return W}function te(A,y,W){return Math.floor(Math.floor(A/W)/y)}function Ge(A,y,W,ht){let _t=A.updateRanges;if(_t.length===0)e.texSubImage2D(i.TEXTURE_2D,0,0,0,y.width,y.height,W,ht,y.data);else{_t.sort((U,rt)=>U.start-rt.start);let yt=0;for(let U=1;U<_t.length;U++){let rt=_t[yt],nt=_t[U],wt=rt.start+rt.count,gt=te(nt.start,y.width,4),St=te(rt.start,y.width,4);nt.start<=wt+1&&gt===St&&te(nt.start+nt.count-1,y.width,4)===gt?rt.count=Math.max(rt.count,nt.start+nt.count-rt.start):(++yt,_t[yt]=nt)}_t.length=yt+1;let et=e.getParameter(i.UNPACK_ROW_LENGTH),it=e.getParameter(i.UNPACK_SKIP_PIXELS),pt=e.getParameter(i.UNPACK_SKIP_ROWS);e.pixelStorei(i.UNPACK_ROW_LENGTH,y.width);for(let U=0,rt=_t.length;U<rt;U++){let nt=_t[U],wt=Math.floor(nt.start/4),gt=Math.ceil(nt.count/4),St=wt%y.width,Gt=Math.floor(wt/y.width),Zt=gt,lt=1;e.pixelStorei(i.UNPACK_SKIP_PIXELS,St),e.pixelStorei(i.UNPACK_SKIP_ROWS,Gt),e.texSubImage2D(i.TEXTURE_2D,0,St,Gt,Zt,lt,W,ht,y.data)}A.clearUpdateRanges(),e.pixelStorei(i.UNPACK_ROW_LENGTH,et),e.pixelStorei(i.UNPACK_SKIP_PIXELS,it),e.pixelStorei(i.UNPACK_SKIP_ROWS,pt)}}function Ue(A,y,W){let ht=i.TEXTURE_2D;(y.isDataArrayTexture||y.isCompressedArrayTexture)&&(ht=i.TEXTURE_2D_ARRAY),y.isData3DTexture&&(ht=i.TEXTURE_3D);let at=oe(A,y),_t=y.source;e.bindTexture(ht,A.__webglTexture,i.TEXTURE0+W);let yt=n.get(_t);if(_t.version!==yt.__version||at===!0){if(e.activeTexture(i.TEXTURE0+W),(typeof ImageBitmap<"u"&&y.image instanceof ImageBitmap)===!1){let lt=ge.getPrimaries(ge.workingColorSpace),Ot=y.colorSpace===rs?null:ge.getPrimaries(y.colorSpace),Jt=y.colorSpace===rs||lt===Ot?i.NONE:i.BROWSER_DEFAULT_WEBGL;e.pixelStorei(i.UNPACK_FLIP_Y_WEBGL,y.flipY),e.pixelStorei(i.UNPACK_PREMULTIPLY_ALPHA_WEBGL,y.premultiplyAlpha),e.pixelStorei(i.UNPACK_COLORSPACE_CONVERSION_WEBGL,Jt)}e.pixelStorei(i.UNPACK_ALIGNMENT,y.unpackAlignment);let it=M(y.image,!1,s.maxTextureSize);it=zt(y,it);let pt=r.convert(y.format,y.colorSpace),U=r.convert(y.type),rt=T(y.internalFormat,pt,U,y.normalized,y.colorSpace,y.isVideoTexture);he(ht,y);let nt,wt=y.mipmaps,gt=y.isVideoTexture!==!0,St=yt.__version===void 0||at===!0,Gt=_t.dataReady,Zt=E(y,it);if(y.isDepthTexture)rt=_(y.format===ss,y.type),St&&(gt?e.texStorage2D(i.TEXTURE_2D,1,rt,it.width,it.height):e.texImage2D(i.TEXTURE_2D,0,rt,it.width,it.height,0,pt,U,null));else if(y.isDataTexture)if(wt.length>0){gt&&St&&e.texStorage2D(i.TEXTURE_2D,Zt,rt,wt[0].width,wt[0].height);for(let lt=0,Ot=wt.length;lt<Ot;lt++)nt=wt[lt],gt?Gt&&e.texSubImage2D(i.TEXTURE_2D,lt,0,0,nt.width,nt.height,pt,U,nt.data):e.texImage2D(i.TEXTURE_2D,lt,rt,nt.width,nt.height,0,pt,U,nt.data);y.generateMipmaps=!1}else gt?(St&&e.texStorage2D(i.TEXTURE_2D,Zt,rt,it.width,it.height),Gt&&Ge(y,it,pt,U)):e.texImage2D(i.TEXTURE_2D,0,rt,it.width,it.height,0,pt,U,it.data);else if(y.isCompressedTexture)if(y.isCompressedArrayTexture){gt&&St&&e.texStorage3D(i.TEXTURE_2D_ARRAY,Zt,rt,wt[0].width,wt[0].height,it.depth);for(let lt=0,Ot=wt.length;lt<Ot;lt++)if(nt=wt[lt],y.format!==bi)if(pt!==null)if(gt){if(Gt)if(y.layerUpdates.size>0){let Jt=Vh(nt.width,nt.height,y.format,y.type);for(let Rt of y.layerUpdates){let ae=nt.data.subarray(Rt*Jt/nt.data.BYTES_PER_ELEMENT,(Rt+1)*Jt/nt.data.BYTES_PER_ELEMENT);e.compressedTexSubImage3D(i.TEXTURE_2D_ARRAY,lt,0,0,Rt,nt.width,nt.height,1,pt,ae)}}else e.compressedTexSubImage3D(i.TEXTURE_2D_ARRAY,lt,0,0,0,nt.width,nt.height,it.depth,pt,nt.data)}else e.compressedTexImage3D(i.TEXTURE_2D_ARRAY,lt,rt,nt.width,nt.height,it.depth,0,nt.data,0,0);else $t("WebGLRenderer: Attempt to load unsupported compressed texture format in .uploadTexture()");else gt?Gt&&e.texSubImage3D(i.TEXTURE_2D_ARRAY,lt,0,0,0,nt.width,nt.height,it.depth,pt,U,nt.data):e.texImage3D(i.TEXTURE_2D_ARRAY,lt,rt,nt.width,nt.height,it.depth,0,pt,U,nt.data);y.layerUpdates.size>0&&y.clearLayerUpdates()}else{gt&&St&&e.texStorage2D(i.TEXTURE_2D,Zt,rt,wt[0].width,wt[0].height);for(let lt=0,Ot=wt.length;lt<Ot;lt++)nt=wt[lt],y.format!==bi?pt!==null?gt?Gt&&e.compressedTexSubImage2D(i.TEXTURE_2D,lt,0,0,nt.width,nt.height,pt,nt.data):e.compressedTexImage2D(i.TEXTURE_2D,lt,rt,nt.width,nt.height,0,nt.data):$t("WebGLRenderer: Attempt to load unsupported compressed texture format in .uploadTexture()"):gt?Gt&&e.texSubImage2D(i.TEXTURE_2D,lt,0,0,nt.width,nt.height,pt,U,nt.data):e.texImage2D(i.TEXTURE_2D,lt,rt,nt.width,nt.height,0,pt,U,nt.data)}else if(y.isDataArrayTexture)if(gt){if(St&&e.texStorage3D(i.TEXTURE_2D_ARRAY,Zt,rt,it.width,it.height,it.depth),Gt)if(y.layerUpdates.size>0){let lt=Vh(it.width,it.height,y.format,y.type);for(let Ot of y.layerUpdates){let Jt=it.data.subarray(Ot*lt/it.data.BYTES_PER_ELEMENT,(Ot+1)*lt/it.data.BYTES_PER_ELEMENT);e.texSubImage3D(i.TEXTURE_2D_ARRAY,0,0,0,Ot,it.width,it.height,1,pt,U,Jt)}y.clearLayerUpdates()}else e.texSubImage3D(i.TEXTURE_2D_ARRAY,0,0,0,0,it.width,it.height,it.depth,pt,U,it.data)}else e.texImage3D(i.TEXTURE_2D_ARRAY,0,rt,it.width,it.height,it.depth,0,pt,U,it.data);else if(y.isData3DTexture)gt?(St&&e.texStorage3D(i.TEXTURE_3D,Zt,rt,it.width,it.height,it.depth),Gt&&e.texSubImage3D(i.TEXTURE_3D,0,0,0,0,it.width,it.height,it.depth,pt,U,it.data)):e.texImage3D(i.TEXTURE_3D,0,rt,it.width,it.height,it.depth,0,pt,U,it.data);else if(y.isFramebufferTexture){if(St)if(gt)e.texStorage2D(i.TEXTURE_2D,Zt,rt,it.width,it.height);else{let lt=it.width,Ot=it.height;for(let Jt=0;Jt<Zt;Jt++)e.texImage2D(i.TEXTURE_2D,Jt,rt,lt,Ot,0,pt,U,null),lt>>=1,Ot>>=1}}else if(y.isHTMLTexture){if("texElementImage2D"in i){let lt=i.canvas;if(lt.hasAttribute("layoutsubtree")||lt.setAttribute("layoutsubtree","true"),it.parentNode!==lt){lt.appendChild(it),d.add(y),lt.onpaint=Ot=>{let Jt=Ot.changedElements;for(let Rt of d)Jt.includes(Rt.image)&&(Rt.needsUpdate=!0)},lt.requestPaint();return}if(i.texElementImage2D.length===3)i.texElementImage2D(i.TEXTURE_2D,i.RGBA8,it);else{let Jt=i.RGBA,Rt=i.RGBA,ae=i.UNSIGNED_BYTE;i.texElementImage2D(i.TEXTURE_2D,0,Jt,Rt,ae,it)}i.texParameteri(i.TEXTURE_2D,i.TEXTURE_MIN_FILTER,i.LINEAR),i.texParameteri(i.TEXTURE_2D,i.TEXTURE_WRAP_S,i.CLAMP_TO_EDGE),i.texParameteri(i.TEXTURE_2D,i.TEXTURE_WRAP_T,i.CLAMP_TO_EDGE)}}else if(wt.length>0){if(gt&&St){let lt=Xt(wt[0]);e.texStorage2D(i.TEXTURE_2D,Zt,rt,lt.width,lt.height)}for(let lt=0,Ot=wt.length;lt<Ot;lt++)nt=wt[lt],gt?Gt&&e.texSubImage2D(i.TEXTURE_2D,lt,0,0,pt,U,nt):e.texImage2D(i.TEXTURE_2D,lt,rt,pt,U,nt);y.generateMipmaps=!1}else if(gt){if(St){let lt=Xt(it);e.texStorage2D(i.TEXTURE_2D,Zt,rt,lt.width,lt.height)}Gt&&e.texSubImage2D(i.TEXTURE_2D,0,0,0,pt,U,it)}else e.texImage2D(i.TEXTURE_2D,0,rt,pt,U,it);C(y)&&y.mipmapsAutoUpdate===!0&&b(ht),yt.__version=_t.version,y.onUpdate&&y.onUpdate(y)}A.__version=y.version}function tn(A,y,W){if(y.image.length!==6)return;let ht=oe(A,y),at=y.source;e.bindTexture(i.TEXTURE_CUBE_MAP,A.__webglTexture,i.TEXTURE0+W);let _t=n.get(at);if(at.version!==_t.__version||ht===!0){e.activeTexture(i.TEXTURE0+W);let yt=ge.getPrimaries(ge.workingColorSpace),et=y.colorSpace===rs?null:ge.getPrimaries(y.colorSpace),it=y.colorSpace===rs||yt===et?i.NONE:i.BROWSER_DEFAULT_WEBGL;e.pixelStorei(i.UNPACK_FLIP_Y_WEBGL,y.flipY),e.pixelStorei(i.UNPACK_PREMULTIPLY_ALPHA_WEBGL,y.premultiplyAlpha),e.pixelStorei(i.UNPACK_ALIGNMENT,y.unpackAlignment),e.pixelStorei(i.UNPACK_COLORSPACE_CONVERSION_WEBGL,it);let pt=y.isCompressedTexture||y.image[0].isCompressedTexture,U=y.image[0]&&y.image[0].isDataTexture,rt=[];for(let Rt=0;Rt<6;Rt++)!pt&&!U?rt[Rt]=M(y.image[Rt],!0,s.maxCubemapSize):rt[Rt]=U?y.image[Rt].image:y.image[Rt],rt[Rt]=zt(y,rt[Rt]);let nt=rt[0],wt=r.convert(y.format,y.colorSpace),gt=r.convert(y.type),St=T(y.internalFormat,wt,gt,y.normalized,y.colorSpace),Gt=y.isVideoTexture!==!0,Zt=_t.__version===void 0||ht===!0,lt=at.dataReady,Ot=E(y,nt);he(i.TEXTURE_CUBE_MAP,y);let Jt;if(y.isDepthTexture){if(St=_(y.format===ss,y.type),Zt)if(Gt)e.texStorage2D(i.TEXTURE_CUBE_MAP,1,St,nt.width,nt.height);else for(let Rt=0;Rt<6;Rt++)e.texImage2D(i.TEXTURE_CUBE_MAP_POSITIVE_X+Rt,0,St,nt.width,nt.height,0,wt,gt,null)}else if(pt){Gt&&Zt&&e.texStorage2D(i.TEXTURE_CUBE_MAP,Ot,St,nt.width,nt.height);for(let Rt=0;Rt<6;Rt++){Jt=rt[Rt].mipmaps;for(let ae=0;ae<Jt.length;ae++){let Fe=Jt[ae];y.format!==bi?wt!==null?Gt?lt&&e.compressedTexSubImage2D(i.TEXTURE_CUBE_MAP_POSITIVE_X+Rt,ae,0,0,Fe.width,Fe.height,wt,Fe.data):e.compressedTexImage2D(i.TEXTURE_CUBE_MAP_POSITIVE_X+Rt,ae,St,Fe.width,Fe.height,0,Fe.data):$t("WebGLRenderer: Attempt to load unsupported compressed texture format in .setTextureCube()"):Gt?lt&&e.texSubImage2D(i.TEXTURE_CUBE_MAP_POSITIVE_X+Rt,ae,0,0,Fe.width,Fe.height,wt,gt,Fe.data):e.texImage2D(i.TEXTURE_CUBE_MAP_POSITIVE_X+Rt,ae,St,Fe.width,Fe.height,0,wt,gt,Fe.data)}}}else{if(Jt=y.mipmaps,Gt&&Zt){Jt.length>0&&Ot++;let Rt=Xt(rt[0]);e.texStorage2D(i.TEXTURE_CUBE_MAP,Ot,St,Rt.width,Rt.height)}for(let Rt=0;Rt<6;Rt++)if(U){Gt?lt&&e.texSubImage2D(i.TEXTURE_CUBE_MAP_POSITIVE_X+Rt,0,0,0,rt[Rt].width,rt[Rt].height,wt,gt,rt[Rt].data):e.texImage2D(i.TEXTURE_CUBE_MAP_POSITIVE_X+Rt,0,St,rt[Rt].width,rt[Rt].height,0,wt,gt,rt[Rt].data);for(let ae=0;ae<Jt.length;ae++){let Cn=Jt[ae].image[Rt].image;Gt?lt&&e.texSubImage2D(i.TEXTURE_CUBE_MAP_POSITIVE_X+Rt,ae+1,0,0,Cn.width,Cn.height,wt,gt,Cn.data):e.texImage2D(i.TEXTURE_CUBE_MAP_POSITIVE_X+Rt,ae+1,St,Cn.width,Cn.height,0,wt,gt,Cn.data)}}else{Gt?lt&&e.texSubImage2D(i.TEXTURE_CUBE_MAP_POSITIVE_X+Rt,0,0,0,wt,gt,rt[Rt]):e.texImage2D(i.TEXTURE_CUBE_MAP_POSITIVE_X+Rt,0,St,wt,gt,rt[Rt]);for(let ae=0;ae<Jt.length;ae++){let Fe=Jt[ae];Gt?lt&&e.texSubImage2D(i.TEXTURE_CUBE_MAP_POSITIVE_X+Rt,ae+1,0,0,wt,gt,Fe.image[Rt]):e.texImage2D(i.TEXTURE_CUBE_MAP_POSITIVE_X+Rt,ae+1,St,wt,gt,Fe.image[Rt])}}}C(y)&&y.mipmapsAutoUpdate===!0&&b(i.TEXTURE_CUBE_MAP),_t.__version=at.version,y.onUpdate&&y.onUpdate(y)}A.__version=y.version}function Pe(A,y,W,ht,at,_t){let yt=r.convert(W.format,W.colorSpace),et=r.convert(W.type),it=T(W.internalFormat,yt,et,W.normalized,W.colorSpace),pt=n.get(y),U=n.get(W);if(U.__renderTarget=y,!pt.__hasExternalTextures){let rt=Math.max(1,y.width>>_t),nt=Math.max(1,y.height>>_t);at===i.TEXTURE_3D||at===i.TEXTURE_2D_ARRAY?e.texImage3D(at,_t,it,rt,nt,y.depth,0,yt,et,null):e.texImage2D(at,_t,it,rt,nt,0,yt,et,null)}e.bindFramebuffer(i.FRAMEBUFFER,A),bt(y)?o.framebufferTexture2DMultisampleEXT(i.FRAMEBUFFER,ht,at,U.__webglTexture,0,se(y)):(at===i.TEXTURE_2D||at>=i.TEXTURE_CUBE_MAP_POSITIVE_X&&at<=i.TEXTURE_CUBE_MAP_NEGATIVE_Z)&&i.framebufferTexture2D(i.FRAMEBUFFER,ht,at,U.__webglTexture,_t),e.bindFramebuffer(i.FRAMEBUFFER,null)}function _n(A,y,W){if(i.bindRenderbuffer(i.RENDERBUFFER,A),y.depthBuffer){let ht=y.depthTexture,at=ht&&ht.isDepthTexture?ht.type:null,_t=_(y.stencilBuffer,at),yt=y.stencilBuffer?i.DEPTH_STENCIL_ATTACHMENT:i.DEPTH_ATTACHMENT;bt(y)?o.renderbufferStorageMultisampleEXT(i.RENDERBUFFER,se(y),_t,y.width,y.height):W?i.renderbufferStorageMultisample(i.RENDERBUFFER,se(y),_t,y.width,y.height):i.renderbufferStorage(i.RENDERBUFFER,_t,y.width,y.height),i.framebufferRenderbuffer(i.FRAMEBUFFER,yt,i.RENDERBUFFER,A)}else{let ht=y.textures;for(let at=0;at<ht.length;at++){let _t=ht[at],yt=r.convert(_t.format,_t.colorSpace),et=r.convert(_t.type),it=T(_t.internalFormat,yt,et,_t.normalized,_t.colorSpace);bt(y)?o.renderbufferStorageMultisampleEXT(i.RENDERBUFFER,se(y),it,y.width,y.height):W?i.renderbufferStorageMultisample(i.RENDERBUFFER,se(y),it,y.width,y.height):i.renderbufferStorage(i.RENDERBUFFER,it,y.width,y.height)}}i.bindRenderbuffer(i.RENDERBUFFER,null)}function xe(A,y,W){let ht=y.isWebGLCubeRenderTarget===!0;if(e.bindFramebuffer(i.FRAMEBUFFER,A),!(y.depthTexture&&y.depthTexture.isDepthTexture))throw new Error("THREE.WebGLTextures: renderTarget.depthTexture must be an instance of THREE.DepthTexture.");let at=n.get(y.depthTexture);at.__renderTarget=y;let _t=ht?y.depthTexture.image[0]:y.depthTexture.image;(!at.__webglTexture||_t.width!==y.width||_t.height!==y.height)&&(_t.width=y.width,_t.height=y.height,y.depthTexture.needsUpdate=!0),ht?Mt(y.depthTexture,0):mt(y.depthTexture,0);let yt=at.__webglTexture,et=se(y),it=ht?i.TEXTURE_CUBE_MAP_POSITIVE_X+W:i.TEXTURE_2D,pt=y.depthTexture.format===ss?i.DEPTH_STENCIL_ATTACHMENT:i.DEPTH_ATTACHMENT;if(y.depthTexture.format===es)bt(y)?o.framebufferTexture2DMultisampleEXT(i.FRAMEBUFFER,pt,it,yt,0,et):i.framebufferTexture2D(i.FRAMEBUFFER,pt,it,yt,0);else if(y.depthTexture.format===ss)bt(y)?o.framebufferTexture2DMultisampleEXT(i.FRAMEBUFFER,pt,it,yt,0,et):i.framebufferTexture2D(i.FRAMEBUFFER,pt,it,yt,0);else throw new Error("THREE.WebGLTextures: Unknown depthTexture format.")}function cn(A){let y=n.get(A),W=A.isWebGLCubeRenderTarget===!0;if(y.__boundDepthTexture!==A.depthTexture){let ht=A.depthTexture;if(y.__depthDisposeCallback&&y.__depthDisposeCallback(),ht){let at=()=>{delete y.__boundDepthTexture,delete y.__depthDisposeCallback,ht.removeEventListener("dispose",at)};ht.addEventListener("dispose",at),y.__depthDisposeCallback=at}y.__boundDepthTexture=ht}if(A.depthTexture&&!y.__autoAllocateDepthBuffer)if(W)for(let ht=0;ht<6;ht++)xe(y.__webglFramebuffer[ht],A,ht);else A.texture.mipmaps.length>0?xe(y.__webglFramebuffer[0],A,0):xe(y.__webglFramebuffer,A,0);else if(W){y.__webglDepthbuffer=[];for(let ht=0;ht<6;ht++)if(e.bindFramebuffer(i.FRAMEBUFFER,y.__webglFramebuffer[ht]),y.__webglDepthbuffer[ht]===void 0)y.__webglDepthbuffer[ht]=i.createRenderbuffer(),_n(y.__webglDepthbuffer[ht],A,!1);else{let at=A.stencilBuffer?i.DEPTH_STENCIL_ATTACHMENT:i.DEPTH_ATTACHMENT,_t=y.__webglDepthbuffer[ht];i.bindRenderbuffer(i.RENDERBUFFER,_t),i.framebufferRenderbuffer(i.FRAMEBUFFER,at,i.RENDERBUFFER,_t)}}else if(A.texture.mipmaps.length>0?e.bindFramebuffer(i.FRAMEBUFFER,y.__webglFramebuffer[0]):e.bindFramebuffer(i.FRAMEBUFFER,y.__webglFramebuffer),y.__webglDepthbuffer===void 0)y.__webglDepthbuffer=i.createRenderbuffer(),_n(y.__webglDepthbuffer,A,!1);else{let at=A.stencilBuffer?i.DEPTH_STENCIL_ATTACHMENT:i.DEPTH_ATTACHMENT,_t=y.__webglDepthbuffer;i.bindRenderbuffer(i.RENDERBUFFER,_t),i.framebufferRenderbuffer(i.FRAMEBUFFER,at,i.RENDERBUFFER,_t)}e.bindFramebuffer(i.FRAMEBUFFER,null)}function $e(A,y,W){let ht=n.get(A);y!==void 0&&Pe(ht.__webglFramebuffer,A,A.texture,i.COLOR_ATTACHMENT0,i.TEXTURE_2D,0),W!==void 0&&cn(A)}function en(A){let y=A.texture,W=n.get(A),ht=n.get(y);A.addEventListener("dispose",G),z(A);let at=A.textures,_t=A.isWebGLCubeRenderTarget===!0,yt=at.length>1;if(yt||(ht.__webglTexture===void 0&&(ht.__webglTexture=i.createTexture()),ht.__version=y.version,a.memory.textures++),_t){W.__webglFramebuffer=[];for(let et=0;et<6;et++)if(y.mipmaps.length>0){W.__webglFramebuffer[et]=[];for(let it=0;it<y.mipmaps.length;it++)W.__webglFramebuffer[et][it]=i.createFramebuffer()}else W.__webglFramebuffer[et]=i.createFramebuffer()}else{if(y.mipmaps.length>0){W.__webglFramebuffer=[];for(let et=0;et<y.mipmaps.length;et++)W.__webglFramebuffer[et]=i.createFramebuffer()}else W.__webglFramebuffer=i.createFramebuffer();if(yt)for(let et=0,it=at.length;et<it;et++){let pt=n.get(at[et]);pt.__webglTexture===void 0&&(pt.__webglTexture=i.createTexture(),a.memory.textures++)}if(A.samples>0&&bt(A)===!1){W.__webglMultisampledFramebuffer=i.createFramebuffer(),W.__webglColorRenderbuffer=[],e.bindFramebuffer(i.FRAMEBUFFER,W.__webglMultisampledFramebuffer);for(let et=0;et<at.length;et++){let it=at[et];W.__webglColorRenderbuffer[et]=i.createRenderbuffer(),i.bindRenderbuffer(i.RENDERBUFFER,W.__webglColorRenderbuffer[et]);let pt=r.convert(it.format,it.colorSpace),U=r.convert(it.type),rt=T(it.internalFormat,pt,U,it.normalized,it.colorSpace,A.isXRRenderTarget===!0),nt=se(A);i.renderbufferStorageMultisample(i.RENDERBUFFER,nt,rt,A.width,A.height),i.framebufferRenderbuffer(i.FRAMEBUFFER,i.COLOR_ATTACHMENT0+et,i.RENDERBUFFER,W.__webglColorRenderbuffer[et])}i.bindRenderbuffer(i.RENDERBUFFER,null),A.depthBuffer&&(W.__webglDepthRenderbuffer=i.createRenderbuffer(),_n(W.__webglDepthRenderbuffer,A,!0)),e.bindFramebuffer(i.FRAMEBUFFER,null)}}if(_t){e.bindTexture(i.TEXTURE_CUBE_MAP,ht.__webglTexture),he(i.TEXTURE_CUBE_MAP,y);for(let et=0;et<6;et++)if(y.mipmaps.length>0)for(let it=0;it<y.mipmaps.length;it++)Pe(W.__webglFramebuffer[et][it],A,y,i.COLOR_ATTACHMENT0,i.TEXTURE_CUBE_MAP_POSITIVE_X+et,it);else Pe(W.__webglFramebuffer[et],A,y,i.COLOR_ATTACHMENT0,i.TEXTURE_CUBE_MAP_POSITIVE_X+et,0);C(y)?b(i.TEXTURE_CUBE_MAP):y.mipmaps.length>0&&i.texParameteri(i.TEXTURE_CUBE_MAP,i.TEXTURE_MAX_LEVEL,y.mipmaps.length-1),e.unbindTexture()}else if(yt){for(let et=0,it=at.length;et<it;et++){let pt=at[et],U=n.get(pt),rt=i.TEXTURE_2D;(A.isWebGL3DRenderTarget||A.isWebGLArrayRenderTarget)&&(rt=A.isWebGL3DRenderTarget?i.TEXTURE_3D:i.TEXTURE_2D_ARRAY),e.bindTexture(rt,U.__webglTexture),he(rt,pt),Pe(W.__webglFramebuffer,A,pt,i.COLOR_ATTACHMENT0+et,rt,0),C(pt)&&b(rt)}e.unbindTexture()}else{let et=i.TEXTURE_2D;if((A.isWebGL3DRenderTarget||A.isWebGLArrayRenderTarget)&&(et=A.isWebGL3DRenderTarget?i.TEXTURE_3D:i.TEXTURE_2D_ARRAY),e.bindTexture(et,ht.__webglTexture),he(et,y),y.mipmaps.length>0)for(let it=0;it<y.mipmaps.length;it++)Pe(W.__webglFramebuffer[it],A,y,i.COLOR_ATTACHMENT0,et,it);else Pe(W.__webglFramebuffer,A,y,i.COLOR_ATTACHMENT0,et,0);C(y)?b(et):y.mipmaps.length>0&&i.texParameteri(et,i.TEXTURE_MAX_LEVEL,y.mipmaps.length-1),e.unbindTexture()}A.depthBuffer&&cn(A)}function F(A){let y=A.textures;for(let W=0,ht=y.length;W<ht;W++){let at=y[W];if(C(at)&&at.mipmapsAutoUpdate===!0){let _t=I(A),yt=n.get(at).__webglTexture;e.bindTexture(_t,yt),b(_t),e.unbindTexture()}}}let Ct=[];function qt(A){if(A.samples>0){if(bt(A)===!1){let y=A.textures,W=A.width,ht=A.height,at=i.COLOR_BUFFER_BIT,_t=A.stencilBuffer?i.DEPTH_STENCIL_ATTACHMENT:i.DEPTH_ATTACHMENT,yt=n.get(A),et=y.length>1;if(et)for(let pt=0;pt<y.length;pt++)e.bindFramebuffer(i.FRAMEBUFFER,yt.__webglMultisampledFramebuffer),i.framebufferRenderbuffer(i.FRAMEBUFFER,i.COLOR_ATTACHMENT0+pt,i.RENDERBUFFER,null),e.bindFramebuffer(i.FRAMEBUFFER,yt.__webglFramebuffer),i.framebufferTexture2D(i.DRAW_FRAMEBUFFER,i.COLOR_ATTACHMENT0+pt,i.TEXTURE_2D,null,0);e.bindFramebuffer(i.READ_FRAMEBUFFER,yt.__webglMultisampledFramebuffer),A.texture.mipmaps.length>0?e.bindFramebuffer(i.DRAW_FRAMEBUFFER,yt.__webglFramebuffer[0]):e.bindFramebuffer(i.DRAW_FRAMEBUFFER,yt.__webglFramebuffer);for(let pt=0;pt<y.length;pt++){if(A.resolveDepthBuffer&&(A.depthBuffer&&(at|=i.DEPTH_BUFFER_BIT),A.stencilBuffer&&A.resolveStencilBuffer&&(at|=i.STENCIL_BUFFER_BIT)),et){i.framebufferRenderbuffer(i.READ_FRAMEBUFFER,i.COLOR_ATTACHMENT0,i.RENDERBUFFER,yt.__webglColorRenderbuffer[pt]);let U=n.get(y[pt]).__webglTexture;i.framebufferTexture2D(i.DRAW_FRAMEBUFFER,i.COLOR_ATTACHMENT0,i.TEXTURE_2D,U,0)}i.blitFramebuffer(0,0,W,ht,0,0,W,ht,at,i.NEAREST),l===!0&&(Ct.length=0,Ct.push(i.COLOR_ATTACHMENT0+pt),A.depthBuffer&&A.storeMultisampledDepthBuffer===!1&&Ct.push(_t),i.invalidateFramebuffer(i.READ_FRAMEBUFFER,Ct))}if(e.bindFramebuffer(i.READ_FRAMEBUFFER,null),e.bindFramebuffer(i.DRAW_FRAMEBUFFER,null),et)for(let pt=0;pt<y.length;pt++){e.bindFramebuffer(i.FRAMEBUFFER,yt.__webglMultisampledFramebuffer),i.framebufferRenderbuffer(i.FRAMEBUFFER,i.COLOR_ATTACHMENT0+pt,i.RENDERBUFFER,yt.__webglColorRenderbuffer[pt]);let U=n.get(y[pt]).__webglTexture;e.bindFramebuffer(i.FRAMEBUFFER,yt.__webglFramebuffer),i.framebufferTexture2D(i.DRAW_FRAMEBUFFER,i.COLOR_ATTACHMENT0+pt,i.TEXTURE_2D,U,0)}e.bindFramebuffer(i.DRAW_FRAMEBUFFER,yt.__webglMultisampledFramebuffer)}else if(A.depthBuffer&&A.storeMultisampledDepthBuffer===!1&&l){let y=A.stencilBuffer?i.DEPTH_STENCIL_ATTACHMENT:i.DEPTH_ATTACHMENT;i.invalidateFramebuffer(i.DRAW_FRAMEBUFFER,[y])}}}function se(A){return Math.min(s.maxSamples,A.samples)}function bt(A){let y=n.get(A);return A.samples>0&&t.has("WEBGL_multisampled_render_to_texture")===!0&&y.__useRenderToTexture!==!1}function Le(A){let y=a.render.frame;h.get(A)!==y&&(h.set(A,y),A.update())}function zt(A,y){let W=A.colorSpace,ht=A.format,at=A.type;return A.isCompressedTexture===!0||A.isVideoTexture===!0||W!==Vs&&W!==rs&&(ge.getTransfer(W)===Ee?(ht!==bi||at!==ti)&&$t("WebGLTextures: sRGB encoded textures have to use RGBAFormat and UnsignedByteType."):jt("WebGLTextures: Unsupported texture color space:",W)),y}function Xt(A){return typeof HTMLImageElement<"u"&&A instanceof HTMLImageElement?(c.width=A.naturalWidth||A.width,c.height=A.naturalHeight||A.height):typeof VideoFrame<"u"&&A instanceof VideoFrame?(c.width=A.displayWidth,c.height=A.displayHeight):(c.width=A.width,c.height=A.height),c}this.allocateTextureUnit=ut,this.resetTextureUnits=j,this.getTextureUnits=st,this.setTextureUnits=dt,this.setTexture2D=mt,this.setTexture2DArray=xt,this.setTexture3D=At,this.setTextureCube=Mt,this.rebindTextures=$e,this.setupRenderTarget=en,this.updateRenderTargetMipmap=F,this.updateMultisampleRenderTarget=qt,this.setupDepthRenderbuffer=cn,this.setupFrameBufferTexture=Pe,this.useMultisampledRTT=bt,this.dispose=V}function Wv(i,t){function e(n,s=rs){let r,a=ge.getTransfer(s);if(n===ti)return i.UNSIGNED_BYTE;if(n===cl)return i.UNSIGNED_SHORT_4_4_4_4;if(n===hl)return i.UNSIGNED_SHORT_5_5_5_1;if(n===bh)return i.UNSIGNED_INT_5_9_9_9_REV;if(n===wh)return i.UNSIGNED_INT_10F_11F_11F_REV;if(n===Sh)return i.BYTE;if(n===Mh)return i.SHORT;if(n===kr)return i.UNSIGNED_SHORT;if(n===ll)return i.INT;if(n===vi)return i.UNSIGNED_INT;if(n===Si)return i.FLOAT;if(n===Mi)return i.HALF_FLOAT;if(n===Eh)return i.ALPHA;if(n===Th)return i.RGB;if(n===bi)return i.RGBA;if(n===es)return i.DEPTH_COMPONENT;if(n===ss)return i.DEPTH_STENCIL;if(n===Ah)return i.RED;if(n===ul)return i.RED_INTEGER;if(n===Ps)return i.RG;if(n===dl)return i.RG_INTEGER;if(n===fl)return i.RGBA_INTEGER;if(n===Na||n===Ua||n===Fa||n===Oa)if(a===Ee)if(r=t.get("WEBGL_compressed_texture_s3tc_srgb"),r!==null){if(n===Na)return r.COMPRESSED_SRGB_S3TC_DXT1_EXT;if(n===Ua)return r.COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT;if(n===Fa)return r.COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT;if(n===Oa)return r.COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT}else return null;else if(r=t.get("WEBGL_compressed_texture_s3tc"),r!==null){if(n===Na)return r.COMPRESSED_RGB_S3TC_DXT1_EXT;if(n===Ua)return r.COMPRESSED_RGBA_S3TC_DXT1_EXT;if(n===Fa)return r.COMPRESSED_RGBA_S3TC_DXT3_EXT;if(n===Oa)return r.COMPRESSED_RGBA_S3TC_DXT5_EXT}else return null;if(n===pl||n===ml||n===gl||n===_l)if(r=t.get("WEBGL_compressed_texture_pvrtc"),r!==null){if(n===pl)return r.COMPRESSED_RGB_PVRTC_4BPPV1_IMG;if(n===ml)return r.COMPRESSED_RGB_PVRTC_2BPPV1_IMG;if(n===gl)return r.COMPRESSED_RGBA_PVRTC_4BPPV1_IMG;if(n===_l)return r.COMPRESSED_RGBA_PVRTC_2BPPV1_IMG}else return null;if(n===xl||n===yl||n===vl||n===Sl||n===Ml||n===Ba||n===bl)if(r=t.get("WEBGL_compressed_texture_etc"),r!==null){if(n===xl||n===yl)return a===Ee?r.COMPRESSED_SRGB8_ETC2:r.COMPRESSED_RGB8_ETC2;if(n===vl)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ETC2_EAC:r.COMPRESSED_RGBA8_ETC2_EAC;if(n===Sl)return r.COMPRESSED_R11_EAC;if(n===Ml)return r.COMPRESSED_SIGNED_R11_EAC;if(n===Ba)return r.COMPRESSED_RG11_EAC;if(n===bl)return r.COMPRESSED_SIGNED_RG11_EAC}else return null;if(n===wl||n===El||n===Tl||n===Al||n===Rl||n===Cl||n===Pl||n===Il||n===Ll||n===Dl||n===Nl||n===Ul||n===Fl||n===Ol)if(r=t.get("WEBGL_compressed_texture_astc"),r!==null){if(n===wl)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR:r.COMPRESSED_RGBA_ASTC_4x4_KHR;if(n===El)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_5x4_KHR:r.COMPRESSED_RGBA_ASTC_5x4_KHR;if(n===Tl)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_5x5_KHR:r.COMPRESSED_RGBA_ASTC_5x5_KHR;if(n===Al)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_6x5_KHR:r.COMPRESSED_RGBA_ASTC_6x5_KHR;if(n===Rl)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_6x6_KHR:r.COMPRESSED_RGBA_ASTC_6x6_KHR;if(n===Cl)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_8x5_KHR:r.COMPRESSED_RGBA_ASTC_8x5_KHR;if(n===Pl)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_8x6_KHR:r.COMPRESSED_RGBA_ASTC_8x6_KHR;if(n===Il)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_8x8_KHR:r.COMPRESSED_RGBA_ASTC_8x8_KHR;if(n===Ll)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_10x5_KHR:r.COMPRESSED_RGBA_ASTC_10x5_KHR;if(n===Dl)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_10x6_KHR:r.COMPRESSED_RGBA_ASTC_10x6_KHR;if(n===Nl)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_10x8_KHR:r.COMPRESSED_RGBA_ASTC_10x8_KHR;if(n===Ul)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_10x10_KHR:r.COMPRESSED_RGBA_ASTC_10x10_KHR;if(n===Fl)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_12x10_KHR:r.COMPRESSED_RGBA_ASTC_12x10_KHR;if(n===Ol)return a===Ee?r.COMPRESSED_SRGB8_ALPHA8_ASTC_12x12_KHR:r.COMPRESSED_RGBA_ASTC_12x12_KHR}else return null;if(n===Bl||n===kl||n===zl)if(r=t.get("EXT_texture_compression_bptc"),r!==null){if(n===Bl)return a===Ee?r.COMPRESSED_SRGB_ALPHA_BPTC_UNORM_EXT:r.COMPRESSED_RGBA_BPTC_UNORM_EXT;if(n===kl)return r.COMPRESSED_RGB_BPTC_SIGNED_FLOAT_EXT;if(n===zl)return r.COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT_EXT}else return null;if(n===Vl||n===Gl||n===ka||n===Hl)if(r=t.get("EXT_texture_compression_rgtc"),r!==null){if(n===Vl)return r.COMPRESSED_RED_RGTC1_EXT;if(n===Gl)return r.COMPRESSED_SIGNED_RED_RGTC1_EXT;if(n===ka)return r.COMPRESSED_RED_GREEN_RGTC2_EXT;if(n===Hl)return r.COMPRESSED_SIGNED_RED_GREEN_RGTC2_EXT}else return null;return n===Ys?i.UNSIGNED_INT_24_8:i[n]!==void 0?i[n]:null}return{convert:e}}var Xv=`
void main() {

	gl_Position = vec4( position, 1.0 );

}`,qv=`
uniform sampler2DArray depthColor;
uniform float depthWidth;
uniform float depthHeight;

void main() {

	vec2 coord = vec2( gl_FragCoord.x / depthWidth, gl_FragCoord.y / depthHeight );

	if ( coord.x >= 1.0 ) {

		gl_FragDepth = texture( depthColor, vec3( coord.x - 1.0, coord.y, 1 ) ).r;

	} else {

		gl_FragDepth = texture( depthColor, vec3( coord.x, coord.y, 0 ) ).r;

	}

}`,eu=class{constructor(){this.texture=null,this.mesh=null,this.depthNear=0,this.depthFar=0}init(t,e){if(this.texture===null){let n=new Aa(t.texture);(t.depthNear!==e.depthNear||t.depthFar!==e.depthFar)&&(this.depthNear=t.depthNear,this.depthFar=t.depthFar),this.texture=n}}getMesh(t){if(this.texture!==null&&this.mesh===null){let e=t.cameras[0].viewport,n=new Bi({vertexShader:Xv,fragmentShader:qv,uniforms:{depthColor:{value:this.texture},depthWidth:{value:e.z},depthHeight:{value:e.w}}});this.mesh=new Oi(new Ra(20,20),n)}return this.mesh}reset(){this.texture=null,this.mesh=null}getDepthTexture(){return this.texture}},nu=class extends yi{constructor(t,e){super();let n=this,s=null,r=1,a=null,o="local-floor",l=1,c=null,h=null,d=null,u=null,f=null,x=null,w=typeof XRWebGLBinding<"u",m=new eu,p={},M=e.getContextAttributes(),C=null,b=null,I=[],T=[],_=new re,E=null,z=null,N=new Nn;N.viewport=new qe;let L=new Nn;L.viewport=new qe;let G=[N,L],H=new il,D=null,V=null;this.cameraAutoUpdate=!0,this.enabled=!1,this.isPresenting=!1,this.getController=function(Q){let mt=I[Q];return mt===void 0&&(mt=new Ir,I[Q]=mt),mt.getTargetRaySpace()},this.getControllerGrip=function(Q){let mt=I[Q];return mt===void 0&&(mt=new Ir,I[Q]=mt),mt.getGripSpace()},this.getHand=function(Q){let mt=I[Q];return mt===void 0&&(mt=new Ir,I[Q]=mt),mt.getHandSpace()};function Y(Q){let mt=T.indexOf(Q.inputSource);if(mt===-1)return;let xt=I[mt];xt!==void 0&&(xt.update(Q.inputSource,Q.frame,c||a),xt.dispatchEvent({type:Q.type,data:Q.inputSource}))}function k(){s.removeEventListener("select",Y),s.removeEventListener("selectstart",Y),s.removeEventListener("selectend",Y),s.removeEventListener("squeeze",Y),s.removeEventListener("squeezestart",Y),s.removeEventListener("squeezeend",Y),s.removeEventListener("end",k),s.removeEventListener("inputsourceschange",ct);for(let Q=0;Q<I.length;Q++){let mt=T[Q];mt!==null&&(T[Q]=null,I[Q].disconnect(mt))}D=null,V=null,m.reset();for(let Q in p)delete p[Q];if(t.setRenderTarget(C),f=null,u=null,d=null,s=null,b=null,ut.stop(),n.isPresenting=!1,t.setPixelRatio(E),t.setSize(_.width,_.height,!1),z!==null){let Q=z.camera;Q.fov=z.fov,Q.zoom=z.zoom,Q.updateProjectionMatrix(),z=null}n.dispatchEvent({type:"sessionend"})}this.setFramebufferScaleFactor=function(Q){r=Q,n.isPresenting===!0&&$t("WebXRManager: Cannot change framebuffer scale while presenting.")},this.setReferenceSpaceType=function(Q){o=Q,n.isPresenting===!0&&$t("WebXRManager: Cannot change reference space type while presenting.")},this.getReferenceSpace=function(){return c||a},this.setReferenceSpace=function(Q){c=Q},this.getBaseLayer=function(){return u!==null?u:f},this.getBinding=function(){return d===null&&w&&(d=new XRWebGLBinding(s,e)),d},this.getFrame=function(){return x},this.getSession=function(){return s},this.setSession=async function(Q){if(s=Q,s!==null){if(C=t.getRenderTarget(),s.addEventListener("select",Y),s.addEventListener("selectstart",Y),s.addEventListener("selectend",Y),s.addEventListener("squeeze",Y),s.addEventListener("squeezestart",Y),s.addEventListener("squeezeend",Y),s.addEventListener("end",k),s.addEventListener("inputsourceschange",ct),M.xrCompatible!==!0&&await e.makeXRCompatible(),E=t.getPixelRatio(),t.getSize(_),w&&"createProjectionLayer"in XRWebGLBinding.prototype){let xt=null,At=null,Mt=null;M.depth&&(Mt=M.stencil?e.DEPTH24_STENCIL8:e.DEPTH_COMPONENT24,xt=M.stencil?ss:es,At=M.stencil?Ys:vi);let Ht={colorFormat:e.RGBA8,depthFormat:Mt,scaleFactor:r};d=this.getBinding(),u=d.createProjectionLayer(Ht),s.updateRenderState({layers:[u]}),t.setPixelRatio(1),t.setSize(u.textureWidth,u.textureHeight,!1),b=new Kn(u.textureWidth,u.textureHeight,{format:bi,type:ti,depthTexture:new ns(u.textureWidth,u.textureHeight,At,void 0,void 0,void 0,void 0,void 0,void 0,xt),stencilBuffer:M.stencil,colorSpace:t.outputColorSpace,samples:M.antialias?4:0,resolveDepthBuffer:u.ignoreDepthValues===!1,resolveStencilBuffer:u.ignoreDepthValues===!1,storeMultisampledDepthBuffer:u.ignoreDepthValues===!1,storeMultisampledStencilBuffer:u.ignoreDepthValues===!1})}else{let xt={antialias:M.antialias,alpha:!0,depth:M.depth,stencil:M.stencil,framebufferScaleFactor:r};f=new XRWebGLLayer(s,e,xt),s.updateRenderState({baseLayer:f}),t.setPixelRatio(1),t.setSize(f.framebufferWidth,f.framebufferHeight,!1),b=new Kn(f.framebufferWidth,f.framebufferHeight,{format:bi,type:ti,colorSpace:t.outputColorSpace,stencilBuffer:M.stencil,resolveDepthBuffer:f.ignoreDepthValues===!1,resolveStencilBuffer:f.ignoreDepthValues===!1,storeMultisampledDepthBuffer:f.ignoreDepthValues===!1,storeMultisampledStencilBuffer:f.ignoreDepthValues===!1})}b.isXRRenderTarget=!0,this.setFoveation(l),c=null,a=await s.requestReferenceSpace(o),ut.setContext(s),ut.start(),n.isPresenting=!0,n.dispatchEvent({type:"sessionstart"})}},this.getEnvironmentBlendMode=function(){if(s!==null)return s.environmentBlendMode},this.getDepthTexture=function(){return m.getDepthTexture()};function ct(Q){for(let mt=0;mt<Q.removed.length;mt++){let xt=Q.removed[mt],At=T.indexOf(xt);At>=0&&(T[At]=null,I[At].disconnect(xt))}for(let mt=0;mt<Q.added.length;mt++){let xt=Q.added[mt],At=T.indexOf(xt);if(At===-1){for(let Ht=0;Ht<I.length;Ht++)if(Ht>=T.length){T.push(xt),At=Ht;break}else if(T[Ht]===null){T[Ht]=xt,At=Ht;break}if(At===-1)break}let Mt=I[At];Mt&&Mt.connect(xt)}}function Z(Q,mt){mt===null?Q.matrixWorld.copy(Q.matrix):Q.matrixWorld.multiplyMatrices(mt.matrixWorld,Q.matrix),Q.matrixWorldInverse.copy(Q.matrixWorld).invert()}this.updateCamera=function(Q){if(s===null)return;let mt=Q.near,xt=Q.far;m.texture!==null&&(m.depthNear>0&&(mt=m.depthNear),m.depthFar>0&&(xt=m.depthFar)),H.near=L.near=N.near=mt,H.far=L.far=N.far=xt,(D!==H.near||V!==H.far)&&(s.updateRenderState({depthNear:H.near,depthFar:H.far}),D=H.near,V=H.far),H.layers.mask=Q.layers.mask|6,N.layers.mask=H.layers.mask&-5,L.layers.mask=H.layers.mask&-3;let At=Q.parent,Mt=H.cameras;Z(H,At);for(let Ht=0;Ht<Mt.length;Ht++)Z(Mt[Ht],At);H.projectionMatrix.copy(N.projectionMatrix),H.projectionMatrixInverse.copy(N.projectionMatrixInverse),z===null&&Q.isPerspectiveCamera&&(z={camera:Q,fov:Q.fov,zoom:Q.zoom}),j(Q,H,At)};function j(Q,mt,xt){xt===null?Q.matrix.copy(mt.matrixWorld):(Q.matrix.copy(xt.matrixWorld),Q.matrix.invert(),Q.matrix.multiply(mt.matrixWorld)),Q.matrix.decompose(Q.position,Q.quaternion,Q.scale),Q.updateMatrixWorld(!0),Q.projectionMatrix.copy(mt.projectionMatrix),Q.projectionMatrixInverse.copy(mt.projectionMatrixInverse),Q.isPerspectiveCamera&&(Q.fov=Cr*2*Math.atan(1/Q.projectionMatrix.elements[5]),Q.zoom=1)}this.getCamera=function(){return H},this.getFoveation=function(){if(!(u===null&&f===null))return l},this.setFoveation=function(Q){l=Q,u!==null&&(u.fixedFoveation=Q),f!==null&&f.fixedFoveation!==void 0&&(f.fixedFoveation=Q)},this.hasDepthSensing=function(){return m.texture!==null},this.getDepthSensingMesh=function(){return m.getMesh(H)},this.getCameraTexture=function(Q){return p[Q]};let st=null;function dt(Q,mt){if(h=mt.getViewerPose(c||a),x=mt,h!==null){let xt=h.views;f!==null&&(t.setRenderTargetFramebuffer(b,f.framebuffer),t.setRenderTarget(b));let At=!1;xt.length!==H.cameras.length&&(H.cameras.length=0,At=!0);for(let Vt=0;Vt<xt.length;Vt++){let he=xt[Vt],oe=null;if(f!==null)oe=f.getViewport(he);else{let Ge=d.getViewSubImage(u,he);oe=Ge.viewport,Vt===0&&(t.setRenderTargetTextures(b,Ge.colorTexture,Ge.depthStencilTexture),t.setRenderTarget(b))}let te=G[Vt];te===void 0&&(te=new Nn,te.layers.enable(Vt),te.viewport=new qe,G[Vt]=te),te.matrix.fromArray(he.transform.matrix),te.matrix.decompose(te.position,te.quaternion,te.scale),te.projectionMatrix.fromArray(he.projectionMatrix),te.projectionMatrixInverse.copy(te.projectionMatrix).invert(),te.viewport.set(oe.x,oe.y,oe.width,oe.height),Vt===0&&(H.matrix.copy(te.matrix),H.matrix.decompose(H.position,H.quaternion,H.scale)),At===!0&&H.cameras.push(te)}let Mt=s.enabledFeatures;if(Mt&&Mt.includes("depth-sensing")&&s.depthUsage=="gpu-optimized"&&w){d=n.getBinding();let Vt=d.getDepthInformation(xt[0]);Vt&&Vt.isValid&&Vt.texture&&m.init(Vt,s.renderState)}if(Mt&&Mt.includes("camera-access")&&w){t.state.unbindTexture(),d=n.getBinding();for(let Vt=0;Vt<xt.length;Vt++){let he=xt[Vt].camera;if(he){let oe=p[he];oe||(oe=new Aa,p[he]=oe);let te=d.getCameraImage(he);oe.sourceTexture=te}}}}for(let xt=0;xt<I.length;xt++){let At=T[xt],Mt=I[xt];At!==null&&Mt!==void 0&&Mt.update(At,mt,c||a)}st&&st(Q,mt),mt.detectedPlanes&&n.dispatchEvent({type:"planesdetected",data:mt}),x=null}let ut=new np;ut.setAnimationLoop(dt),this.setAnimationLoop=function(Q){st=Q},this.dispose=function(){}}},$v=new Xe,dp=new Qt;dp.set(-1,0,0,0,1,0,0,0,1);function Yv(i,t){function e(m,p){m.matrixAutoUpdate===!0&&m.updateMatrix(),p.value.copy(m.matrix)}function n(m,p){p.color.getRGB(m.fogColor.value,Bh(i)),p.isFog?(m.fogNear.value=p.near,m.fogFar.value=p.far):p.isFogExp2&&(m.fogDensity.value=p.density)}function s(m,p,M,C,b){p.isNodeMaterial?p.uniformsNeedUpdate=!1:p.isMeshBasicMaterial?r(m,p):p.isMeshLambertMaterial?(r(m,p),p.envMap&&(m.envMapIntensity.value=p.envMapIntensity)):p.isMeshToonMaterial?(r(m,p),d(m,p)):p.isMeshPhongMaterial?(r(m,p),h(m,p),p.envMap&&(m.envMapIntensity.value=p.envMapIntensity)):p.isMeshStandardMaterial?(r(m,p),u(m,p),p.isMeshPhysicalMaterial&&f(m,p,b)):p.isMeshMatcapMaterial?(r(m,p),x(m,p)):p.isMeshDepthMaterial?r(m,p):p.isMeshDistanceMaterial?(r(m,p),w(m,p)):p.isMeshNormalMaterial?r(m,p):p.isLineBasicMaterial?(a(m,p),p.isLineDashedMaterial&&o(m,p)):p.isPointsMaterial?l(m,p,M,C):p.isSpriteMaterial?c(m,p):p.isShadowMaterial?(m.color.value.copy(p.color),m.opacity.value=p.opacity):p.isShaderMaterial&&(p.uniformsNeedUpdate=!1)}function r(m,p){m.opacity.value=p.opacity,p.color&&m.diffuse.value.copy(p.color),p.emissive&&m.emissive.value.copy(p.emissive).multiplyScalar(p.emissiveIntensity),p.map&&(m.map.value=p.map,e(p.map,m.mapTransform)),p.alphaMap&&(m.alphaMap.value=p.alphaMap,e(p.alphaMap,m.alphaMapTransform)),p.bumpMap&&(m.bumpMap.value=p.bumpMap,e(p.bumpMap,m.bumpMapTransform),m.bumpScale.value=p.bumpScale,p.side===Fn&&(m.bumpScale.value*=-1)),p.normalMap&&(m.normalMap.value=p.normalMap,e(p.normalMap,m.normalMapTransform),m.normalScale.value.copy(p.normalScale),p.side===Fn&&m.normalScale.value.negate()),p.displacementMap&&(m.displacementMap.value=p.displacementMap,e(p.displacementMap,m.displacementMapTransform),m.displacementScale.value=p.displacementScale,m.displacementBias.value=p.displacementBias),p.emissiveMap&&(m.emissiveMap.value=p.emissiveMap,e(p.emissiveMap,m.emissiveMapTransform)),p.specularMap&&(m.specularMap.value=p.specularMap,e(p.specularMap,m.specularMapTransform)),p.alphaTest>0&&(m.alphaTest.value=p.alphaTest);let M=t.get(p),C=M.envMap,b=M.envMapRotation;C&&(m.envMap.value=C,m.envMapRotation.value.setFromMatrix4($v.makeRotationFromEuler(b)).transpose(),C.isCubeTexture&&C.isRenderTargetTexture===!1&&m.envMapRotation.value.premultiply(dp),m.reflectivity.value=p.reflectivity,m.ior.value=p.ior,m.refractionRatio.value=p.refractionRatio),p.lightMap&&(m.lightMap.value=p.lightMap,m.lightMapIntensity.value=p.lightMapIntensity,e(p.lightMap,m.lightMapTransform)),p.aoMap&&(m.aoMap.value=p.aoMap,m.aoMapIntensity.value=p.aoMapIntensity,e(p.aoMap,m.aoMapTransform))}function a(m,p){m.diffuse.value.copy(p.color),m.opacity.value=p.opacity,p.map&&(m.map.value=p.map,e(p.map,m.mapTransform))}function o(m,p){m.dashSize.value=p.dashSize,m.totalSize.value=p.dashSize+p.gapSize,m.scale.value=p.scale}function l(m,p,M,C){m.diffuse.value.copy(p.color),m.opacity.value=p.opacity,m.size.value=p.size*M,m.scale.value=C*.5,p.map&&(m.map.value=p.map,e(p.map,m.uvTransform)),p.alphaMap&&(m.alphaMap.value=p.alphaMap,e(p.alphaMap,m.alphaMapTransform)),p.alphaTest>0&&(m.alphaTest.value=p.alphaTest)}function c(m,p){m.diffuse.value.copy(p.color),m.opacity.value=p.opacity,m.rotation.value=p.rotation,p.map&&(m.map.value=p.map,e(p.map,m.mapTransform)),p.alphaMap&&(m.alphaMap.value=p.alphaMap,e(p.alphaMap,m.alphaMapTransform)),p.alphaTest>0&&(m.alphaTest.value=p.alphaTest)}function h(m,p){m.specular.value.copy(p.specular),m.shininess.value=Math.max(p.shininess,1e-4)}function d(m,p){p.gradientMap&&(m.gradientMap.value=p.gradientMap)}function u(m,p){m.metalness.value=p.metalness,p.metalnessMap&&(m.metalnessMap.value=p.metalnessMap,e(p.metalnessMap,m.metalnessMapTransform)),m.roughness.value=p.roughness,p.roughnessMap&&(m.roughnessMap.value=p.roughnessMap,e(p.roughnessMap,m.roughnessMapTransform)),p.envMap&&(m.envMapIntensity.value=p.envMapIntensity)}function f(m,p,M){m.ior.value=p.ior,p.diffuseRoughness>0&&(m.diffuseRoughness.value=p.diffuseRoughness,p.diffuseRoughnessMap&&(m.diffuseRoughnessMap.value=p.diffuseRoughnessMap,e(p.diffuseRoughnessMap,m.diffuseRoughnessMapTransform))),p.sheen>0&&(m.sheenColor.value.copy(p.sheenColor).multiplyScalar(p.sheen),m.sheenRoughness.value=p.sheenRoughness,p.sheenColorMap&&(m.sheenColorMap.value=p.sheenColorMap,e(p.sheenColorMap,m.sheenColorMapTransform)),p.sheenRoughnessMap&&(m.sheenRoughnessMap.value=p.sheenRoughnessMap,e(p.sheenRoughnessMap,m.sheenRoughnessMapTransform))),p.clearcoat>0&&(m.clearcoat.value=p.clearcoat,m.clearcoatRoughness.value=p.clearcoatRoughness,p.clearcoatMap&&(m.clearcoatMap.value=p.clearcoatMap,e(p.clearcoatMap,m.clearcoatMapTransform)),p.clearcoatRoughnessMap&&(m.clearcoatRoughnessMap.value=p.clearcoatRoughnessMap,e(p.clearcoatRoughnessMap,m.clearcoatRoughnessMapTransform)),p.clearcoatNormalMap&&(m.clearcoatNormalMap.value=p.clearcoatNormalMap,e(p.clearcoatNormalMap,m.clearcoatNormalMapTransform),m.clearcoatNormalScale.value.copy(p.clearcoatNormalScale),p.side===Fn&&m.clearcoatNormalScale.value.negate())),p.dispersion>0&&(m.dispersion.value=p.dispersion),p.retroreflectivity>0&&(m.retroreflectivity.value=p.retroreflectivity),p.iridescence>0&&(m.iridescence.value=p.iridescence,m.iridescenceIOR.value=p.iridescenceIOR,m.iridescenceThicknessMinimum.value=p.iridescenceThicknessMinimum,m.iridescenceThicknessMaximum.value=p.iridescenceThicknessMaximum,p.iridescenceMap&&(m.iridescenceMap.value=p.iridescenceMap,e(p.iridescenceMap,m.iridescenceMapTransform)),p.iridescenceThicknessMap&&(m.iridescenceThicknessMap.value=p.iridescenceThicknessMap,e(p.iridescenceThicknessMap,m.iridescenceThicknessMapTransform))),p.transmission>0&&(m.transmission.value=p.transmission,m.transmissionSamplerMap.value=M.texture,m.transmissionSamplerSize.value.set(M.width,M.height),p.transmissionMap&&(m.transmissionMap.value=p.transmissionMap,e(p.transmissionMap,m.transmissionMapTransform)),m.thickness.value=p.thickness,p.thicknessMap&&(m.thicknessMap.value=p.thicknessMap,e(p.thicknessMap,m.thicknessMapTransform)),m.attenuationDistance.value=p.attenuationDistance,m.attenuationColor.value.copy(p.attenuationColor)),p.anisotropy>0&&(m.anisotropyVector.value.set(p.anisotropy*Math.cos(p.anisotropyRotation),p.anisotropy*Math.sin(p.anisotropyRotation)),p.anisotropyMap&&(m.anisotropyMap.value=p.anisotropyMap,e(p.anisotropyMap,m.anisotropyMapTransform))),m.specularIntensity.value=p.specularIntensity,m.specularColor.value.copy(p.specularColor),p.specularColorMap&&(m.specularColorMap.value=p.specularColorMap,e(p.specularColorMap,m.specularColorMapTransform)),p.specularIntensityMap&&(m.specularIntensityMap.value=p.specularIntensityMap,e(p.specularIntensityMap,m.specularIntensityMapTransform))}function x(m,p){p.matcap&&(m.matcap.value=p.matcap)}function w(m,p){let M=t.get(p).light;m.referencePosition.value.setFromMatrixPosition(M.matrixWorld),m.nearDistance.value=M.shadow.camera.near,m.farDistance.value=M.shadow.camera.far}return{refreshFogUniforms:n,refreshMaterialUniforms:s}}function Zv(i,t,e,n){let s={},r={};function a(M,C){let b=C.program;n.uniformBlockBinding(M,b,s[M.id])}function o(M,C){let b=s[M.id];b===void 0&&(x(M),b=l(M),s[M.id]=b,M.addEventListener("dispose",m));let I=C.program;n.updateUBOMapping(M,I);let T=t.render.frame;r[M.id]!==T&&(c(M),r[M.id]=T)}function l(M){let C=i.createBuffer(),b=M.__size,I=M.usage;return i.bindBuffer(i.UNIFORM_BUFFER,C),i.bufferData(i.UNIFORM_BUFFER,b,I),i.bindBuffer(i.UNIFORM_BUFFER,null),C}function c(M){let C=s[M.id],b=M.uniforms,I=M.__cache;i.bindBuffer(i.UNIFORM_BUFFER,C);for(let T=0,_=b.length;T<_;T++){let E=b[T];if(Array.isArray(E))for(let z=0,N=E.length;z<N;z++)h(E[z],T,z,I);else h(E,T,0,I)}i.bindBuffer(i.UNIFORM_BUFFER,null)}function h(M,C,b,I){if(u(M,C,b,I)===!0){let T=M.__offset,_=M.value;if(Array.isArray(_)){let E=0;for(let z=0;z<_.length;z++){let N=_[z],L=w(N,!0);d(N,M.__data,E),E+=L.storage/Float32Array.BYTES_PER_ELEMENT}}else d(_,M.__data,0);i.bufferSubData(i.UNIFORM_BUFFER,T,M.__data)}}function d(M,C,b){typeof M=="number"||typeof M=="boolean"?C[b]=M:M.isMatrix3?(C[b]=M.elements[0],C[b+1]=M.elements[1],C[b+2]=M.elements[2],C[b+3]=0,C[b+4]=M.elements[3],C[b+5]=M.elements[4],C[b+6]=M.elements[5],C[b+7]=0,C[b+8]=M.elements[6],C[b+9]=M.elements[7],C[b+10]=M.elements[8],C[b+11]=0):ArrayBuffer.isView(M)?C.set(M.subarray(0,C.length-b),b):M.toArray(C,b)}function u(M,C,b,I){let T=M.value,_=C+"_"+b;if(Array.isArray(T)){I[_]===void 0&&(I[_]=[]);let E=I[_],z=!1;for(let N=0;N<T.length;N++)f(T[N],E,N)===!0&&(z=!0);return z}return f(T,I,_)}function f(M,C,b){if(C[b]===void 0)return typeof M=="number"||typeof M=="boolean"?C[b]=M:ArrayBuffer.isView(M)?C[b]=M.slice():C[b]=M.clone(),!0;{let I=C[b];if(typeof M=="number"||typeof M=="boolean"){if(I!==M)return C[b]=M,!0}else{if(ArrayBuffer.isView(M))return!0;if(I.equals(M)===!1)return I.copy(M),!0}}return!1}function x(M){let C=M.uniforms,b=0,I=16;for(let _=0,E=C.length;_<E;_++){let z=Array.isArray(C[_])?C[_]:[C[_]];for(let N=0,L=z.length;N<L;N++){let G=z[N],H=Array.isArray(G.value)?G.value:[G.value],D=Array.isArray(C[_])||Array.isArray(G.value),V=b;for(let k=0,ct=H.length;k<ct;k++){let Z=H[k],j=w(Z,D),st=b%I,dt=st%j.boundary,ut=st+dt;b+=dt,ut!==0&&I-ut<j.storage&&(b+=I-ut),k===0&&(V=b),b+=j.storage}let Y=G.type==="int"?Int32Array:G.type==="uint"?Uint32Array:Float32Array;G.__data=new Y((b-V)/Float32Array.BYTES_PER_ELEMENT),G.__offset=V}}let T=b%I;return T>0&&(b+=I-T),M.__size=b,M.__cache={},this}function w(M,C){let b={boundary:0,storage:0};return typeof M=="number"||typeof M=="boolean"?(b.boundary=4,b.storage=4):M.isVector2?(b.boundary=8,b.storage=8):M.isVector3||M.isColor?(b.boundary=16,b.storage=12):M.isVector4?(b.boundary=16,b.storage=16):M.isMatrix3?(b.boundary=16,b.storage=48):M.isMatrix4?(b.boundary=16,b.storage=64):M.isTexture?$t("WebGLRenderer: Texture samplers can not be part of an uniforms group."):ArrayBuffer.isView(M)?(b.boundary=16,b.storage=M.byteLength):$t("WebGLRenderer: Unsupported uniform value type.",M),C===!0&&(b.boundary=16,b.storage=Math.ceil(b.storage/16)*16),b}function m(M){let C=M.target;C.removeEventListener("dispose",m),i.deleteBuffer(s[C.id]),delete s[C.id],delete r[C.id]}function p(){for(let M in s)i.deleteBuffer(s[M]);s={},r={}}return{bind:a,update:o,dispose:p}}var Jv=new Uint16Array([12469,15057,12620,14925,13266,14620,13807,14376,14323,13990,14545,13625,14713,13328,14840,12882,14931,12528,14996,12233,15039,11829,15066,11525,15080,11295,15085,10976,15082,10705,15073,10495,13880,14564,13898,14542,13977,14430,14158,14124,14393,13732,14556,13410,14702,12996,14814,12596,14891,12291,14937,11834,14957,11489,14958,11194,14943,10803,14921,10506,14893,10278,14858,9960,14484,14039,14487,14025,14499,13941,14524,13740,14574,13468,14654,13106,14743,12678,14818,12344,14867,11893,14889,11509,14893,11180,14881,10751,14852,10428,14812,10128,14765,9754,14712,9466,14764,13480,14764,13475,14766,13440,14766,13347,14769,13070,14786,12713,14816,12387,14844,11957,14860,11549,14868,11215,14855,10751,14825,10403,14782,10044,14729,9651,14666,9352,14599,9029,14967,12835,14966,12831,14963,12804,14954,12723,14936,12564,14917,12347,14900,11958,14886,11569,14878,11247,14859,10765,14828,10401,14784,10011,14727,9600,14660,9289,14586,8893,14508,8533,15111,12234,15110,12234,15104,12216,15092,12156,15067,12010,15028,11776,14981,11500,14942,11205,14902,10752,14861,10393,14812,9991,14752,9570,14682,9252,14603,8808,14519,8445,14431,8145,15209,11449,15208,11451,15202,11451,15190,11438,15163,11384,15117,11274,15055,10979,14994,10648,14932,10343,14871,9936,14803,9532,14729,9218,14645,8742,14556,8381,14461,8020,14365,7603,15273,10603,15272,10607,15267,10619,15256,10631,15231,10614,15182,10535,15118,10389,15042,10167,14963,9787,14883,9447,14800,9115,14710,8665,14615,8318,14514,7911,14411,7507,14279,7198,15314,9675,15313,9683,15309,9712,15298,9759,15277,9797,15229,9773,15166,9668,15084,9487,14995,9274,14898,8910,14800,8539,14697,8234,14590,7790,14479,7409,14367,7067,14178,6621,15337,8619,15337,8631,15333,8677,15325,8769,15305,8871,15264,8940,15202,8909,15119,8775,15022,8565,14916,8328,14804,8009,14688,7614,14569,7287,14448,6888,14321,6483,14088,6171,15350,7402,15350,7419,15347,7480,15340,7613,15322,7804,15287,7973,15229,8057,15148,8012,15046,7846,14933,7611,14810,7357,14682,7069,14552,6656,14421,6316,14251,5948,14007,5528,15356,5942,15356,5977,15353,6119,15348,6294,15332,6551,15302,6824,15249,7044,15171,7122,15070,7050,14949,6861,14818,6611,14679,6349,14538,6067,14398,5651,14189,5311,13935,4958,15359,4123,15359,4153,15356,4296,15353,4646,15338,5160,15311,5508,15263,5829,15188,6042,15088,6094,14966,6001,14826,5796,14678,5543,14527,5287,14377,4985,14133,4586,13869,4257,15360,1563,15360,1642,15358,2076,15354,2636,15341,3350,15317,4019,15273,4429,15203,4732,15105,4911,14981,4932,14836,4818,14679,4621,14517,4386,14359,4156,14083,3795,13808,3437,15360,122,15360,137,15358,285,15355,636,15344,1274,15322,2177,15281,2765,15215,3223,15120,3451,14995,3569,14846,3567,14681,3466,14511,3305,14344,3121,14037,2800,13753,2467,15360,0,15360,1,15359,21,15355,89,15346,253,15325,479,15287,796,15225,1148,15133,1492,15008,1749,14856,1882,14685,1886,14506,1783,14324,1608,13996,1398,13702,1183]),Vi=null;function Kv(){return Vi===null&&(Vi=new Vo(Jv,16,16,Ps,Mi),Vi.name="DFG_LUT",Vi.minFilter=Un,Vi.magFilter=Un,Vi.wrapS=Fi,Vi.wrapT=Fi,Vi.generateMipmaps=!1,Vi.needsUpdate=!0),Vi}var $l=class{constructor(t={}){let{canvas:e=Ef(),context:n=null,depth:s=!0,stencil:r=!1,alpha:a=!1,antialias:o=!1,premultipliedAlpha:l=!0,preserveDrawingBuffer:c=!1,powerPreference:h="default",failIfMajorPerformanceCaveat:d=!1,reversedDepthBuffer:u=!1,outputBufferType:f=ti}=t;this.isWebGLRenderer=!0;let x;if(n!==null){if(typeof WebGLRenderingContext<"u"&&n instanceof WebGLRenderingContext)throw new Error("THREE.WebGLRenderer: WebGL 1 is not supported since r163.");x=n.getContextAttributes().alpha}else x=a;let w=f,m=new Set([fl,dl,ul]),p=new Set([ti,vi,kr,Ys,cl,hl]),M=new Uint32Array(4),C=new Int32Array(4),b={textures:[],min:[],max:[],resolution:[]},I=null,T=null,_=[],E=[],z=null;this.domElement=e,this.debug={checkShaderErrors:!0,diagnostics:{keywords:!1},onShaderError:null},this.autoClear=!0,this.autoClearColor=!0,this.autoClearDepth=!0,this.autoClearStencil=!0,this.sortObjects=!0,this.clippingPlanes=[],this.localClippingEnabled=!1,this.toneMapping=zi,this.toneMappingExposure=1,this.transmissionResolutionScale=1;let N=this,L=!1,G=null,H=null,D=null,V=null;this._outputColorSpace=$n;let Y=0,k=0,ct=null,Z=-1,j=null,st=new qe,dt=new qe,ut=null,Q=new ye(0),mt=0,xt=e.width,At=e.height,Mt=1,Ht=null,ie=null,Vt=new qe(0,0,xt,At),he=new qe(0,0,xt,At),oe=!1,te=new Ws,Ge=new Go,Ue=!1,tn=!1,Pe=new Xe,_n=new J,xe=new qe,cn={background:null,fog:null,environment:null,overrideMaterial:null,isScene:!0},$e=!1;function en(){return ct===null?Mt:1}let F=n;function Ct(S,O){return e.getContext(S,O)}let qt,se,bt,Le,zt,Xt,A,y,W,ht,at,_t,yt,et,it,pt,U,rt,nt,wt,gt,St,Gt;try{let S={alpha:!0,depth:s,stencil:r,antialias:o,premultipliedAlpha:l,preserveDrawingBuffer:c,powerPreference:h,failIfMajorPerformanceCaveat:d};if("setAttribute"in e&&e.setAttribute("data-engine",`three.js r${"187"}`),e.addEventListener("webglcontextlost",Ot,!1),e.addEventListener("webglcontextrestored",Jt,!1),e.addEventListener("webglcontextcreationerror",Rt,!1),F===null){let O="webgl2";if(F=Ct(O,S),F===null)throw Ct(O)?new Error("THREE.WebGLRenderer: Error creating WebGL context with your selected attributes."):new Error("THREE.WebGLRenderer: Error creating WebGL context.")}Zt()}catch(S){throw e.removeEventListener("webglcontextlost",Ot,!1),e.removeEventListener("webglcontextrestored",Jt,!1),e.removeEventListener("webglcontextcreationerror",Rt,!1),jt("WebGLRenderer: "+S.message),S}function Zt(){qt=new ly(F),qt.init(),gt=new Wv(F,qt),se=new Kx(F,qt,t,gt),bt=new Gv(F,qt),se.reversedDepthBuffer&&u&&bt.buffers.depth.setReversed(!0),H=F.createFramebuffer(),D=F.createFramebuffer(),V=F.createFramebuffer(),Le=new uy(F),zt=new Rv,Xt=new Hv(F,qt,bt,zt,se,gt,Le),A=new oy(N),y=new f0(F),St=new Zx(F,y),W=new cy(F,y,Le,St),ht=new fy(F,W,y,St,Le),rt=new dy(F,se,Xt),it=new jx(zt),at=new Av(N,A,qt,se,St,it),_t=new Yv(N,zt),yt=new Pv,et=new Fv(qt),U=new Yx(N,A,bt,ht,x,l),pt=new Vv(N,ht,se),Gt=new Zv(F,Le,se,bt),nt=new Jx(F,qt,Le),wt=new hy(F,qt,Le),Le.programs=at.programs,N.capabilities=se,N.extensions=qt,N.properties=zt,N.renderLists=yt,N.shadowMap=pt,N.state=bt,N.info=Le}w!==ti&&(z=new my(w,e.width,e.height,o,s,r));let lt=new nu(N,F);this.xr=lt,this.getContext=function(){return F},this.getContextAttributes=function(){return F.getContextAttributes()},this.forceContextLoss=function(){let S=qt.get("WEBGL_lose_context");S&&S.loseContext()},this.forceContextRestore=function(){let S=qt.get("WEBGL_lose_context");S&&S.restoreContext()},this.getPixelRatio=function(){return Mt},this.setPixelRatio=function(S){S!==void 0&&(Mt=S,this.setSize(xt,At,!1))},this.getSize=function(S){return S.set(xt,At)},this.setSize=function(S,O,K=!0){if(lt.isPresenting){$t("WebGLRenderer: Can't change size while VR device is presenting.");return}xt=S,At=O,e.width=Math.floor(S*Mt),e.height=Math.floor(O*Mt),K===!0&&(e.style.width=S+"px",e.style.height=O+"px"),z!==null&&z.setSize(e.width,e.height),this.setViewport(0,0,S,O)},this.getDrawingBufferSize=function(S){return S.set(xt*Mt,At*Mt).floor()},this.setDrawingBufferSize=function(S,O,K){xt=S,At=O,Mt=K,e.width=Math.floor(S*K),e.height=Math.floor(O*K),this.setViewport(0,0,S,O)},this.setEffects=function(S){if(w===ti){jt("WebGLRenderer: setEffects() requires outputBufferType set to HalfFloatType or FloatType.");return}if(S){for(let O=0;O<S.length;O++)if(S[O].isOutputPass===!0){$t("WebGLRenderer: OutputPass is not needed in setEffects(). Tone mapping and color space conversion are applied automatically.");break}}z.setEffects(S||[])},this.getCurrentViewport=function(S){return S.copy(st)},this.getViewport=function(S){return S.copy(Vt)},this.setViewport=function(S,O,K,X){S.isVector4?Vt.set(S.x,S.y,S.z,S.w):Vt.set(S,O,K,X),bt.viewport(st.copy(Vt).multiplyScalar(en()).round())},this.getScissor=function(S){return S.copy(he)},this.setScissor=function(S,O,K,X){S.isVector4?he.set(S.x,S.y,S.z,S.w):he.set(S,O,K,X),bt.scissor(dt.copy(he).multiplyScalar(en()).round())},this.getScissorTest=function(){return oe},this.setScissorTest=function(S){bt.setScissorTest(oe=S)},this.setOpaqueSort=function(S){Ht=S},this.setTransparentSort=function(S){ie=S},this.getClearColor=function(S){return S.copy(U.getClearColor())},this.setClearColor=function(){U.setClearColor(...arguments)},this.getClearAlpha=function(){return U.getClearAlpha()},this.setClearAlpha=function(){U.setClearAlpha(...arguments)},this.clear=function(S=!0,O=!0,K=!0){let X=0;if(S){let q=!1;if(ct!==null){let Et=ct.texture.format;q=m.has(Et)}if(q){let Et=ct.texture.type,Pt=p.has(Et),Tt=U.getClearColor(),It=U.getClearAlpha(),kt=Tt.r,Kt=Tt.g,ue=Tt.b;Pt?(M[0]=kt,M[1]=Kt,M[2]=ue,M[3]=It,F.clearBufferuiv(F.COLOR,0,M)):(C[0]=kt,C[1]=Kt,C[2]=ue,C[3]=It,F.clearBufferiv(F.COLOR,0,C))}else X|=F.COLOR_BUFFER_BIT}O&&(X|=F.DEPTH_BUFFER_BIT,this.state.buffers.depth.setMask(!0)),K&&(X|=F.STENCIL_BUFFER_BIT,this.state.buffers.stencil.setMask(4294967295)),X!==0&&F.clear(X)},this.clearColor=function(){this.clear(!0,!1,!1)},this.clearDepth=function(){this.clear(!1,!0,!1)},this.clearStencil=function(){this.clear(!1,!1,!0)},this.setNodesHandler=function(S){S.setRenderer(this),G=S},this.dispose=function(){e.removeEventListener("webglcontextlost",Ot,!1),e.removeEventListener("webglcontextrestored",Jt,!1),e.removeEventListener("webglcontextcreationerror",Rt,!1),U.dispose(),yt.dispose(),et.dispose(),Xt.dispose(),zt.dispose(),A.dispose(),ht.dispose(),W.dispose(),St.dispose(),Gt.dispose(),at.dispose(),lt.dispose(),lt.removeEventListener("sessionstart",ja),lt.removeEventListener("sessionend",Ri),Wi.stop()};function Ot(S){S.preventDefault(),Dh("WebGLRenderer: Context Lost."),L=!0}function Jt(){Dh("WebGLRenderer: Context Restored."),L=!1;let S=Le.autoReset,O=pt.enabled,K=pt.autoUpdate,X=pt.needsUpdate,q=pt.type;Zt(),Le.autoReset=S,pt.enabled=O,pt.autoUpdate=K,pt.needsUpdate=X,pt.type=q}function Rt(S){jt("WebGLRenderer: A WebGL context could not be created. Reason: ",S.statusMessage)}function ae(S){let O=S.target;O.removeEventListener("dispose",ae),Fe(O)}function Fe(S){Cn(S),zt.remove(S)}function Cn(S){let O=zt.get(S).programs;O!==void 0&&(O.forEach(function(K){at.releaseProgram(K)}),S.isShaderMaterial&&at.releaseShaderCache(S))}this.renderBufferDirect=function(S,O,K,X,q,Et){O===null&&(O=cn);let Pt=q.isMesh&&q.matrixWorld.determinantAffine()<0,Tt=ia(S,O,K,X,q);bt.setMaterial(X,Pt);let It=K.index,kt=1;if(X.wireframe===!0){if(It=W.getWireframeAttribute(K),It===void 0)return;kt=2}let Kt=K.drawRange,ue=K.attributes.position,Bt=Kt.start*kt,de=(Kt.start+Kt.count)*kt;Et!==null&&(Bt=Math.max(Bt,Et.start*kt),de=Math.min(de,(Et.start+Et.count)*kt)),It!==null?(Bt=Math.max(Bt,0),de=Math.min(de,It.count)):ue!=null&&(Bt=Math.max(Bt,0),de=Math.min(de,ue.count));let We=de-Bt;if(We<0||We===1/0)return;St.setup(q,X,Tt,K,It);let Ae,Re=nt;if(It!==null&&(Ae=y.get(It),Re=wt,Re.setIndex(Ae)),q.isMesh)X.wireframe===!0?(bt.setLineWidth(X.wireframeLinewidth*en()),Re.setMode(F.LINES)):Re.setMode(F.TRIANGLES);else if(q.isLine){let hn=X.linewidth;hn===void 0&&(hn=1),bt.setLineWidth(hn*en()),q.isLineSegments?Re.setMode(F.LINES):q.isLineLoop?Re.setMode(F.LINE_LOOP):Re.setMode(F.LINE_STRIP)}else q.isPoints?Re.setMode(F.POINTS):q.isSprite&&Re.setMode(F.TRIANGLES);if(q.isBatchedMesh)if(qt.get("WEBGL_multi_draw"))Re.renderMultiDraw(q._multiDrawStarts,q._multiDrawCounts,q._multiDrawCount);else{let hn=q._multiDrawStarts,Ut=q._multiDrawCounts,nn=q._multiDrawCount,me=It?y.get(It).bytesPerElement:1,qi=zt.get(X).currentProgram.getUniforms();for(let sn=0;sn<nn;sn++)qi.setValue(F,"_gl_DrawID",sn),Re.render(hn[sn]/me,Ut[sn])}else if(q.isInstancedMesh)Re.renderInstances(Bt,We,q.count);else if(K.isInstancedBufferGeometry){let hn=K._maxInstanceCount!==void 0?K._maxInstanceCount:1/0,Ut=Math.min(K.instanceCount,hn);Re.renderInstances(Bt,We,Ut)}else Re.render(Bt,We)};function ta(S,O,K,X){G!==null&&S.isNodeMaterial&&G.setObject(X,S),Ue===!0&&it.setState(S,K,!1),S.transparent===!0&&S.side===ki&&S.forceSinglePass===!1?(S.side=Fn,S.needsUpdate=!0,Ci(S,O,X),S.side=Cs,S.needsUpdate=!0,Ci(S,O,X),S.side=ki):Ci(S,O,X)}this.compile=function(S,O,K=null){K===null&&(K=S),G!==null&&G.renderStart(S,O,K),T=et.get(K),T.init(O),E.push(T),K.traverseVisible(function(q){q.isLight&&q.layers.test(O.layers)&&(T.pushLight(q),q.castShadow&&T.pushShadow(q))}),S!==K&&S.traverseVisible(function(q){q.isLight&&q.layers.test(O.layers)&&(T.pushLight(q),q.castShadow&&T.pushShadow(q))}),T.setupLights(),G!==null&&G.updateLights(T.state.lightsArray),tn=this.localClippingEnabled,Ue=it.init(this.clippingPlanes,tn),Ue===!0&&it.setGlobalState(this.clippingPlanes,O),G!==null&&pt.render(T.state.shadowsArray,K,O);let X=new Set;return S.traverse(function(q){if(!(q.isMesh||q.isPoints||q.isLine||q.isSprite))return;let Et=q.material;if(Et)if(Array.isArray(Et))for(let Pt=0;Pt<Et.length;Pt++){let Tt=Et[Pt];ta(Tt,K,O,q),X.add(Tt)}else ta(Et,K,O,q),X.add(Et)}),T=E.pop(),G!==null&&G.renderEnd(),X},this.compileAsync=function(S,O,K=null){let X=this.compile(S,O,K);return new Promise(q=>{function Et(){if(X.forEach(function(Pt){let It=zt.get(Pt).currentProgram;(It===void 0||It.isReady())&&X.delete(Pt)}),X.size===0){q(S);return}setTimeout(Et,10)}qt.get("KHR_parallel_shader_compile")!==null?Et():setTimeout(Et,10)})};let nr=null;function wc(S){nr&&nr(S)}function ja(){Wi.stop()}function Ri(){Wi.start()}let Wi=new np;Wi.setAnimationLoop(wc),typeof self<"u"&&Wi.setContext(self),this.setAnimationLoop=function(S){nr=S,lt.setAnimationLoop(S),S===null?Wi.stop():Wi.start()},lt.addEventListener("sessionstart",ja),lt.addEventListener("sessionend",Ri),this.render=function(S,O){if(O!==void 0&&O.isCamera!==!0){jt("WebGLRenderer.render: camera is not an instance of THREE.Camera.");return}if(L===!0)return;G!==null&&G.renderStart(S,O);let K=lt.enabled===!0&&lt.isPresenting===!0,X=z!==null&&(ct===null||K)&&z.begin(N,ct);if(S.matrixWorldAutoUpdate===!0&&S.updateMatrixWorld(),O.parent===null&&O.matrixWorldAutoUpdate===!0&&O.updateMatrixWorld(),lt.enabled===!0&&lt.isPresenting===!0&&(z===null||z.isCompositing()===!1)&&(lt.cameraAutoUpdate===!0&&lt.updateCamera(O),O=lt.getCamera()),S.isScene===!0&&S.onBeforeRender(N,S,O,ct),T=et.get(S,E.length),T.init(O),T.state.textureUnits=Xt.getTextureUnits(),E.push(T),Pe.multiplyMatrices(O.projectionMatrix,O.matrixWorldInverse),O.isArrayCamera?Ge.setFromArrayCamera(O):te.setFromProjectionMatrix(Pe,oi,O.reversedDepth),tn=this.localClippingEnabled,Ue=it.init(this.clippingPlanes,tn),I=yt.get(S,_.length),I.init(),_.push(I),this.info.render.frame++,lt.enabled===!0&&lt.isPresenting===!0){let Pt=N.xr.getDepthSensingMesh();Pt!==null&&Xi(Pt,O,-1/0,N.sortObjects)}Xi(S,O,0,N.sortObjects),I.finish(),G!==null&&G.updateLights(T.state.lightsArray),N.sortObjects===!0&&I.sort(Ht,ie),$e=lt.enabled===!1||lt.isPresenting===!1||lt.hasDepthSensing()===!1,$e&&U.addToRenderList(I,S),this.info.autoReset===!0&&this.info.reset(),Ue===!0&&it.beginShadows();let q=T.state.shadowsArray;if(pt.render(q,S,O),Ue===!0&&it.endShadows(),(X&&z.hasRenderPass())===!1){let Pt=I.opaque,Tt=I.transmissive;if(T.setupLights(),O.isArrayCamera){let It=O.cameras;if(Tt.length>0)for(let kt=0,Kt=It.length;kt<Kt;kt++){let ue=It[kt];fi(Pt,Tt,S,ue)}$e&&U.render(S);for(let kt=0,Kt=It.length;kt<Kt;kt++){let ue=It[kt];ea(I,S,ue,ue.viewport)}}else Tt.length>0&&fi(Pt,Tt,S,O),$e&&U.render(S),ea(I,S,O)}ct!==null&&k===0&&(Xt.updateMultisampleRenderTarget(ct),Xt.updateRenderTargetMipmap(ct)),X&&z.end(N),S.isScene===!0&&S.onAfterRender(N,S,O),St.resetDefaultState(),Z=-1,j=null,E.pop(),E.length>0?(T=E[E.length-1],Xt.setTextureUnits(T.state.textureUnits),Ue===!0&&it.setGlobalState(N.clippingPlanes,T.state.camera)):T=null,_.pop(),_.length>0?I=_[_.length-1]:I=null,G!==null&&G.renderEnd()};function Xi(S,O,K,X){if(S.visible===!1)return;if(S.layers.test(O.layers)){if(S.isGroup)K=S.renderOrder;else if(S.isLOD)S.autoUpdate===!0&&S.update(O);else if(S.isLight)T.pushLight(S),S.castShadow&&T.pushShadow(S);else if(S.isSprite){let Pt=O.isArrayCamera?Ge:te;if(!S.frustumCulled||S.intersectsFrustum(Pt)){X&&xe.setFromMatrixPosition(S.matrixWorld).applyMatrix4(Pe);let Tt=ht.update(S),It=S.material;It.visible&&I.push(S,Tt,It,K,xe.z,null,O)}}else if(S.isMesh||S.isLine||S.isPoints){let Pt=O.isArrayCamera?Ge:te;if(!S.frustumCulled||S.intersectsFrustum(Pt)){let Tt=ht.update(S),It=S.material;if(X&&(S.boundingSphere!==void 0?(S.boundingSphere===null&&S.computeBoundingSphere(),xe.copy(S.boundingSphere.center)):(Tt.boundingSphere===null&&Tt.computeBoundingSphere(),xe.copy(Tt.boundingSphere.center)),xe.applyMatrix4(S.matrixWorld).applyMatrix4(Pe)),Array.isArray(It)){let kt=Tt.groups;for(let Kt=0,ue=kt.length;Kt<ue;Kt++){let Bt=kt[Kt],de=It[Bt.materialIndex];de&&de.visible&&I.push(S,Tt,de,K,xe.z,Bt,O)}}else It.visible&&I.push(S,Tt,It,K,xe.z,null,O)}}}let Et=S.children;for(let Pt=0,Tt=Et.length;Pt<Tt;Pt++)Xi(Et[Pt],O,K,X)}function ea(S,O,K,X){let{opaque:q,transmissive:Et,transparent:Pt}=S;T.setupLightsView(K),Ue===!0&&it.setGlobalState(N.clippingPlanes,K),X&&bt.viewport(st.copy(X)),q.length>0&&Ye(q,O,K),Et.length>0&&Ye(Et,O,K),Pt.length>0&&Ye(Pt,O,K),bt.buffers.depth.setTest(!0),bt.buffers.depth.setMask(!0),bt.buffers.color.setMask(!0),bt.setPolygonOffset(!1)}function fi(S,O,K,X){if((K.isScene===!0?K.overrideMaterial:null)!==null)return;if(T.state.transmissionRenderTarget[X.id]===void 0){let Bt=qt.has("EXT_color_buffer_half_float")||qt.has("EXT_color_buffer_float");T.state.transmissionRenderTarget[X.id]=new Kn(1,1,{generateMipmaps:!0,type:Bt?Mi:ti,minFilter:is,samples:Math.max(4,se.samples),stencilBuffer:r,resolveDepthBuffer:!1,resolveStencilBuffer:!1,storeMultisampledDepthBuffer:!1,storeMultisampledStencilBuffer:!1,colorSpace:ge.workingColorSpace})}let Et=T.state.transmissionRenderTarget[X.id],Pt=X.viewport||st;Et.setSize(Pt.z*N.transmissionResolutionScale,Pt.w*N.transmissionResolutionScale);let Tt=N.getRenderTarget(),It=N.getActiveCubeFace(),kt=N.getActiveMipmapLevel();N.setRenderTarget(Et),N.getClearColor(Q),mt=N.getClearAlpha(),mt<1&&N.setClearColor(16777215,.5),N.clear(),$e&&U.render(K);let Kt=N.toneMapping;N.toneMapping=zi;let ue=X.viewport;if(X.viewport!==void 0&&(X.viewport=void 0),T.setupLightsView(X),Ue===!0&&it.setGlobalState(N.clippingPlanes,X),Ye(S,K,X),Xt.updateMultisampleRenderTarget(Et),Xt.updateRenderTargetMipmap(Et),qt.has("WEBGL_multisampled_render_to_texture")===!1){let Bt=!1;for(let de=0,We=O.length;de<We;de++){let Ae=O[de],{object:Re,geometry:hn,material:Ut,group:nn}=Ae;if(Ut.side===ki&&Re.layers.test(X.layers)){let me=Ut.side;Ut.side=Fn,Ut.needsUpdate=!0,je(Re,K,X,hn,Ut,nn),Ut.side=me,Ut.needsUpdate=!0,Bt=!0}}Bt===!0&&(Xt.updateMultisampleRenderTarget(Et),Xt.updateRenderTargetMipmap(Et))}N.setRenderTarget(Tt,It,kt),N.setClearColor(Q,mt),ue!==void 0&&(X.viewport=ue),N.toneMapping=Kt}function Ye(S,O,K){let X=O.isScene===!0?O.overrideMaterial:null;for(let q=0,Et=S.length;q<Et;q++){let Pt=S[q],{object:Tt,geometry:It,group:kt}=Pt,Kt=Pt.material;Kt.allowOverride===!0&&X!==null&&(Kt=X),Tt.layers.test(K.layers)&&je(Tt,O,K,It,Kt,kt)}}function je(S,O,K,X,q,Et){G!==null&&q.isNodeMaterial&&G.setObject(S,q),S.onBeforeRender(N,O,K,X,q,Et),S.modelViewMatrix.multiplyMatrices(K.matrixWorldInverse,S.matrixWorld),S.normalMatrix.getNormalMatrix(S.modelViewMatrix),q.onBeforeRender(N,O,K,X,S,Et),q.transparent===!0&&q.side===ki&&q.forceSinglePass===!1?(q.side=Fn,q.needsUpdate=!0,N.renderBufferDirect(K,O,X,q,S,Et),q.side=Cs,q.needsUpdate=!0,N.renderBufferDirect(K,O,X,q,S,Et),q.side=ki):N.renderBufferDirect(K,O,X,q,S,Et),S.onAfterRender(N,O,K,X,q,Et)}function Qe(S){let O=0;for(let K of S)K.texture!==null&&O++;return O}function Ci(S,O,K){O.isScene!==!0&&(O=cn);let X=zt.get(S),q=T.state.lights,Et=T.state.shadowsArray,Pt=q.state.version,Tt=at.getParameters(S,q.state,Et,O,K,T.state.lightProbeGridArray),It=at.getProgramCacheKey(Tt),kt=X.programs;X.environment=S.isMeshStandardMaterial||S.isMeshLambertMaterial||S.isMeshPhongMaterial?O.environment:null,X.fog=O.fog;let Kt=S.isMeshStandardMaterial||S.isMeshLambertMaterial&&!S.envMap||S.isMeshPhongMaterial&&!S.envMap;X.envMap=A.get(S.envMap||X.environment,Kt),X.envMapRotation=X.environment!==null&&S.envMap===null?O.environmentRotation:S.envMapRotation,kt===void 0&&(S.addEventListener("dispose",ae),kt=new Map,X.programs=kt,X.programVariants=new Map);let ue=kt.get(It);if(ue!==void 0){if(X.currentProgram===ue&&X.lightsStateVersion===Pt)return na(S,Tt),ue}else Tt.uniforms=at.getUniforms(S),G!==null&&S.isNodeMaterial&&G.build(S,K,Tt),S.onBeforeCompile(Tt,N),ue=at.acquireProgram(Tt,It),kt.set(It,ue),X.uniforms=Tt.uniforms;let Bt=X.uniforms;return(!S.isShaderMaterial&&!S.isRawShaderMaterial||S.clipping===!0)&&(Bt.clippingPlanes=it.uniform),na(S,Tt),X.needsLights=hs(S),X.lightsStateVersion=Pt,X.needsLights&&(Bt.ambientLightColor.value=q.state.ambient,Bt.lightProbe.value=q.state.probe,Bt.sunLights.value=q.state.sun,Bt.sunLightShadows.value=q.state.sunShadow,Bt.directionalLights.value=q.state.directional,Bt.directionalLightShadows.value=q.state.directionalShadow,Bt.spotLights.value=q.state.spot,Bt.spotLightShadows.value=q.state.spotShadow,Bt.rectAreaLights.value=q.state.rectArea,Bt.ltc_1.value=q.state.rectAreaLTC1,Bt.ltc_2.value=q.state.rectAreaLTC2,Bt.pointLights.value=q.state.point,Bt.pointLightShadows.value=q.state.pointShadow,Bt.hemisphereLights.value=q.state.hemi,Bt.sunShadowMatrix.value=q.state.sunShadowMatrix,Bt.sunShadowCascade.value=q.state.sunShadowCascade,Bt.directionalShadowMatrix.value=q.state.directionalShadowMatrix,Bt.spotLightMatrix.value=q.state.spotLightMatrix,Bt.spotLightMap.value=q.state.spotLightMap,Bt.pointShadowMatrix.value=q.state.pointShadowMatrix),X.numLightProbeGrids=Qe(T.state.lightProbeGridArray),X.currentProgram=ue,X.uniformsList=null,ue}function Vn(S,O,K,X,q){let Et=zt.get(S),Pt=Et.currentProgram.id+","+X+","+q,Tt=Et.programVariants.get(Pt);return Tt===void 0?(Tt=Ci(S,O,K),Et.programVariants.set(Pt,Tt)):(Et.currentProgram=Tt,Et.uniformsList=null,Et.outputColorSpace=X,Et.toneMapping=q),Tt}function cs(S){if(S.uniformsList===null){let O=S.currentProgram.getUniforms();S.uniformsList=Vr.seqWithValue(O.seq,S.uniforms)}return S.uniformsList}function na(S,O){let K=zt.get(S);K.outputColorSpace=O.outputColorSpace,K.batching=O.batching,K.batchingColor=O.batchingColor,K.instancing=O.instancing,K.instancingColor=O.instancingColor,K.instancingMorph=O.instancingMorph,K.skinning=O.skinning,K.morphTargets=O.morphTargets,K.morphNormals=O.morphNormals,K.morphColors=O.morphColors,K.morphTargetsCount=O.morphTargetsCount,K.numClippingPlanes=O.numClippingPlanes,K.numIntersection=O.numClipIntersection,K.vertexAlphas=O.vertexAlphas,K.vertexTangents=O.vertexTangents,K.toneMapping=O.toneMapping}function ia(S,O,K,X,q){O.isScene!==!0&&(O=cn),Xt.resetTextureUnits();let Et=O.fog,Pt=X.isMeshStandardMaterial||X.isMeshLambertMaterial||X.isMeshPhongMaterial?O.environment:null,Tt=ct===null?N.outputColorSpace:ct.isXRRenderTarget===!0?ct.texture.colorSpace:ge.workingColorSpace,It=X.isMeshStandardMaterial||X.isMeshLambertMaterial&&!X.envMap||X.isMeshPhongMaterial&&!X.envMap,kt=A.get(X.envMap||Pt,It),Kt=X.vertexColors===!0&&!!K.attributes.color&&K.attributes.color.itemSize===4,ue=!!K.attributes.tangent&&(!!X.normalMap||X.anisotropy>0),Bt=!!K.morphAttributes.position,de=!!K.morphAttributes.normal,We=!!K.morphAttributes.color,Ae=zi;X.toneMapped&&(ct===null||ct.isXRRenderTarget===!0)&&(Ae=N.toneMapping);let Re=K.morphAttributes.position||K.morphAttributes.normal||K.morphAttributes.color,hn=Re!==void 0?Re.length:0,Ut=zt.get(X),nn=T.state.lights;if(Ue===!0&&(tn===!0||S!==j)){let Ce=S===j&&X.id===Z;it.setState(X,S,Ce)}let me=!1,qi=!1;X.version===Ut.__version?Ut.needsLights&&Ut.lightsStateVersion!==nn.state.version||q.isBatchedMesh&&Ut.batching===!1||!q.isBatchedMesh&&Ut.batching===!0||q.isBatchedMesh&&Ut.batchingColor===!0&&q._colorsTexture===null||q.isBatchedMesh&&Ut.batchingColor===!1&&q._colorsTexture!==null||q.isInstancedMesh&&Ut.instancing===!1||!q.isInstancedMesh&&Ut.instancing===!0||q.isSkinnedMesh&&Ut.skinning===!1||!q.isSkinnedMesh&&Ut.skinning===!0||q.isInstancedMesh&&Ut.instancingColor===!0&&q.instanceColor===null||q.isInstancedMesh&&Ut.instancingColor===!1&&q.instanceColor!==null||q.isInstancedMesh&&Ut.instancingMorph===!0&&q.morphTexture===null||q.isInstancedMesh&&Ut.instancingMorph===!1&&q.morphTexture!==null||Ut.envMap!==kt||X.fog===!0&&Ut.fog!==Et||Ut.numClippingPlanes!==void 0&&(Ut.numClippingPlanes!==it.numPlanes||Ut.numIntersection!==it.numIntersection)||Ut.vertexAlphas!==Kt||Ut.vertexTangents!==ue||Ut.morphTargets!==Bt||Ut.morphNormals!==de||Ut.morphColors!==We||Ut.morphTargetsCount!==hn||Ut.numLightProbeGrids!==Qe(T.state.lightProbeGridArray)?me=!0:(Ut.outputColorSpace!==Tt||Ut.toneMapping!==Ae)&&(qi=!0):(me=!0,Ut.__version=X.version);let sn=Ut.currentProgram;(me===!0||qi===!0)&&(sn=qi===!0?Vn(X,O,q,Tt,Ae):Ci(X,O,q),G&&X.isNodeMaterial&&G.onUpdateProgram(X,sn,Ut));let rr=!1,Pi=!1,$i=!1,le=sn.getUniforms(),Ze=Ut.uniforms;if(bt.useProgram(sn.program)&&(rr=!0,Pi=!0,$i=!0),X.id!==Z&&(Z=X.id,Pi=!0),rr||j!==S){bt.buffers.depth.getReversed()&&S.reversedDepth!==!0&&(S._reversedDepth=!0,S.updateProjectionMatrix()),le.setValue(F,"projectionMatrix",S.projectionMatrix),le.setValue(F,"viewMatrix",S.matrixWorldInverse);let rn=le.map.cameraPosition;rn!==void 0&&rn.setValue(F,_n.setFromMatrixPosition(S.matrixWorld)),se.logarithmicDepthBuffer&&le.setValue(F,"logDepthBufFC",2/(Math.log(S.far+1)/Math.LN2)),(X.isMeshPhongMaterial||X.isMeshToonMaterial||X.isMeshLambertMaterial||X.isMeshBasicMaterial||X.isMeshStandardMaterial||X.isShaderMaterial)&&le.setValue(F,"isOrthographic",S.isOrthographicCamera===!0),j!==S&&(j=S,Pi=!0,$i=!0)}if(Ut.needsLights&&(nn.state.sunShadowMap.length>0&&le.setValue(F,"sunShadowMap",nn.state.sunShadowMap,Xt),nn.state.directionalShadowMap.length>0&&le.setValue(F,"directionalShadowMap",nn.state.directionalShadowMap,Xt),nn.state.spotShadowMap.length>0&&le.setValue(F,"spotShadowMap",nn.state.spotShadowMap,Xt),nn.state.pointShadowMap.length>0&&le.setValue(F,"pointShadowMap",nn.state.pointShadowMap,Xt)),q.isSkinnedMesh){le.setOptional(F,q,"bindMatrix"),le.setOptional(F,q,"bindMatrixInverse");let Ce=q.skeleton;Ce&&(Ce.boneTexture===null&&Ce.computeBoneTexture(),le.setValue(F,"boneTexture",Ce.boneTexture,Xt))}q.isBatchedMesh&&(le.setOptional(F,q,"batchingTexture"),le.setValue(F,"batchingTexture",q._matricesTexture,Xt),le.setOptional(F,q,"batchingIdTexture"),le.setValue(F,"batchingIdTexture",q._indirectTexture,Xt),le.setOptional(F,q,"batchingColorTexture"),q._colorsTexture!==null&&le.setValue(F,"batchingColorTexture",q._colorsTexture,Xt));let Pn=K.morphAttributes;if((Pn.position!==void 0||Pn.normal!==void 0||Pn.color!==void 0)&&rt.update(q,K,sn),(Pi||Ut.receiveShadow!==q.receiveShadow)&&(Ut.receiveShadow=q.receiveShadow,le.setValue(F,"receiveShadow",q.receiveShadow)),(X.isMeshStandardMaterial||X.isMeshLambertMaterial||X.isMeshPhongMaterial)&&X.envMap===null&&O.environment!==null&&(Ze.envMapIntensity.value=O.environmentIntensity),Ze.dfgLUT!==void 0&&(Ze.dfgLUT.value=Kv()),Pi){if(le.setValue(F,"toneMappingExposure",N.toneMappingExposure),Ut.needsLights&&ir(Ze,$i),Et&&X.fog===!0&&_t.refreshFogUniforms(Ze,Et),_t.refreshMaterialUniforms(Ze,X,Mt,At,T.state.transmissionRenderTarget[S.id]),Ut.needsLights&&Ut.numLightProbeGrids>0){let Ce=b,rn=0;for(let En of T.state.lightProbeGridArray)En.texture!==null&&(Ce.textures[rn]=En.texture,Ce.min[rn]=En.boundingBox.min,Ce.max[rn]=En.boundingBox.max,Ce.resolution[rn]=En.resolution,rn++);for(let En in Ce)Ce[En].length=rn;Ze.probesSH.value=Ce.textures,Ze.probesMin.value=Ce.min,Ze.probesMax.value=Ce.max,Ze.probesResolution.value=Ce.resolution}Vr.upload(F,cs(Ut),Ze,Xt)}if(X.isShaderMaterial&&X.uniformsNeedUpdate===!0&&(Vr.upload(F,cs(Ut),Ze,Xt),X.uniformsNeedUpdate=!1),X.isSpriteMaterial&&le.setValue(F,"center",q.center),le.setValue(F,"modelViewMatrix",q.modelViewMatrix),le.setValue(F,"normalMatrix",q.normalMatrix),le.setValue(F,"modelMatrix",q.matrixWorld),X.uniformsGroups!==void 0){let Ce=X.uniformsGroups;for(let rn=0,En=Ce.length;rn<En;rn++){let Qa=Ce[rn];Gt.update(Qa,sn),Gt.bind(Qa,sn)}}return sn}function ir(S,O){S.ambientLightColor.needsUpdate=O,S.lightProbe.needsUpdate=O,S.sunLights.needsUpdate=O,S.sunLightShadows.needsUpdate=O,S.directionalLights.needsUpdate=O,S.directionalLightShadows.needsUpdate=O,S.pointLights.needsUpdate=O,S.pointLightShadows.needsUpdate=O,S.spotLights.needsUpdate=O,S.spotLightShadows.needsUpdate=O,S.rectAreaLights.needsUpdate=O,S.hemisphereLights.needsUpdate=O}function hs(S){return S.isMeshLambertMaterial||S.isMeshToonMaterial||S.isMeshPhongMaterial||S.isMeshStandardMaterial||S.isShadowMaterial||S.isShaderMaterial&&S.lights===!0}this.getActiveCubeFace=function(){return Y},this.getActiveMipmapLevel=function(){return k},this.getRenderTarget=function(){return ct},this.setRenderTargetTextures=function(S,O,K){let X=zt.get(S);X.__autoAllocateDepthBuffer=S.resolveDepthBuffer===!1,X.__autoAllocateDepthBuffer===!1&&(X.__useRenderToTexture=!1),zt.get(S.texture).__webglTexture=O,zt.get(S.depthTexture).__webglTexture=X.__autoAllocateDepthBuffer?void 0:K,X.__hasExternalTextures=!0},this.setRenderTargetFramebuffer=function(S,O){let K=zt.get(S);K.__webglFramebuffer=O,K.__useDefaultFramebuffer=O===void 0},this.setRenderTarget=function(S,O=0,K=0){ct=S,Y=O,k=K;let X=null,q=!1,Et=!1;if(S){let Tt=zt.get(S);if(Tt.__useDefaultFramebuffer!==void 0){bt.bindFramebuffer(F.FRAMEBUFFER,Tt.__webglFramebuffer),st.copy(S.viewport),dt.copy(S.scissor),ut=S.scissorTest,bt.viewport(st),bt.scissor(dt),bt.setScissorTest(ut),Z=-1;return}else if(Tt.__webglFramebuffer===void 0)Xt.setupRenderTarget(S);else if(Tt.__hasExternalTextures)Xt.rebindTextures(S,zt.get(S.texture).__webglTexture,zt.get(S.depthTexture).__webglTexture);else if(S.depthBuffer){let Kt=S.depthTexture;if(Tt.__boundDepthTexture!==Kt){if(Kt!==null&&zt.has(Kt)&&(S.width!==Kt.image.width||S.height!==Kt.image.height))throw new Error("THREE.WebGLRenderer: Attached DepthTexture is initialized to the incorrect size.");Xt.setupDepthRenderbuffer(S)}}let It=S.texture;(It.isData3DTexture||It.isDataArrayTexture||It.isCompressedArrayTexture)&&(Et=!0);let kt=zt.get(S).__webglFramebuffer;S.isWebGLCubeRenderTarget?(Array.isArray(kt[O])?X=kt[O][K]:X=kt[O],q=!0):S.samples>0&&Xt.useMultisampledRTT(S)===!1?X=zt.get(S).__webglMultisampledFramebuffer:Array.isArray(kt)?X=kt[K]:X=kt,st.copy(S.viewport),dt.copy(S.scissor),ut=S.scissorTest}else st.copy(Vt).multiplyScalar(Mt).floor(),dt.copy(he).multiplyScalar(Mt).floor(),ut=oe;if(K!==0&&(X=H),bt.bindFramebuffer(F.FRAMEBUFFER,X)&&bt.drawBuffers(S,X),bt.viewport(st),bt.scissor(dt),bt.setScissorTest(ut),q){let Tt=zt.get(S.texture);F.framebufferTexture2D(F.FRAMEBUFFER,F.COLOR_ATTACHMENT0,F.TEXTURE_CUBE_MAP_POSITIVE_X+O,Tt.__webglTexture,K)}else if(Et){let Tt=O;for(let It=0;It<S.textures.length;It++){let kt=zt.get(S.textures[It]);F.framebufferTextureLayer(F.FRAMEBUFFER,F.COLOR_ATTACHMENT0+It,kt.__webglTexture,K,Tt)}}else if(S!==null&&K!==0){let Tt=zt.get(S.texture);F.framebufferTexture2D(F.FRAMEBUFFER,F.COLOR_ATTACHMENT0,F.TEXTURE_2D,Tt.__webglTexture,K)}Z=-1};function sr(S){let O=zt.get(S);return(O.__readFormat!==S.format||O.__readType!==S.type)&&(O.__readFormat=S.format,O.__readType=S.type,O.__formatReadable=se.textureFormatReadable(S.format),O.__typeReadable=se.textureTypeReadable(S.type)),O}this.readRenderTargetPixels=function(S,O,K,X,q,Et,Pt,Tt=0){if(!(S&&S.isWebGLRenderTarget)){jt("WebGLRenderer.readRenderTargetPixels: renderTarget is not THREE.WebGLRenderTarget.");return}let It=zt.get(S).__webglFramebuffer;if(S.isWebGLCubeRenderTarget&&Pt!==void 0&&(It=It[Pt],Array.isArray(It)&&(It=It[0])),It){bt.bindFramebuffer(F.FRAMEBUFFER,It);try{let kt=S.textures[Tt],Kt=kt.format,ue=kt.type;S.textures.length>1&&F.readBuffer(F.COLOR_ATTACHMENT0+Tt);let Bt=sr(kt);if(Bt.__formatReadable===!1){jt("WebGLRenderer.readRenderTargetPixels: renderTarget is not in RGBA or implementation defined format.");return}if(Bt.__typeReadable===!1){jt("WebGLRenderer.readRenderTargetPixels: renderTarget is not in UnsignedByteType or implementation defined type.");return}O>=0&&O<=S.width-X&&K>=0&&K<=S.height-q&&F.readPixels(O,K,X,q,gt.convert(Kt),gt.convert(ue),Et)}finally{let kt=ct!==null?zt.get(ct).__webglFramebuffer:null;bt.bindFramebuffer(F.FRAMEBUFFER,kt)}}},this.readRenderTargetPixelsAsync=async function(S,O,K,X,q,Et,Pt,Tt=0){if(!(S&&S.isWebGLRenderTarget))throw new Error("THREE.WebGLRenderer.readRenderTargetPixels: renderTarget is not THREE.WebGLRenderTarget.");let It=zt.get(S).__webglFramebuffer;if(S.isWebGLCubeRenderTarget&&Pt!==void 0&&(It=It[Pt],Array.isArray(It)&&(It=It[0])),It)if(O>=0&&O<=S.width-X&&K>=0&&K<=S.height-q){bt.bindFramebuffer(F.FRAMEBUFFER,It);let kt=S.textures[Tt],Kt=kt.format,ue=kt.type;S.textures.length>1&&F.readBuffer(F.COLOR_ATTACHMENT0+Tt);let Bt=sr(kt);if(Bt.__formatReadable===!1)throw new Error("THREE.WebGLRenderer.readRenderTargetPixelsAsync: renderTarget is not in RGBA or implementation defined format.");if(Bt.__typeReadable===!1)throw new Error("THREE.WebGLRenderer.readRenderTargetPixelsAsync: renderTarget is not in UnsignedByteType or implementation defined type.");let de=F.createBuffer();F.bindBuffer(F.PIXEL_PACK_BUFFER,de),F.bufferData(F.PIXEL_PACK_BUFFER,Et.byteLength,F.STREAM_READ),F.readPixels(O,K,X,q,gt.convert(Kt),gt.convert(ue),0),F.bindBuffer(F.PIXEL_PACK_BUFFER,null);let We=ct!==null?zt.get(ct).__webglFramebuffer:null;bt.bindFramebuffer(F.FRAMEBUFFER,We);let Ae=F.fenceSync(F.SYNC_GPU_COMMANDS_COMPLETE,0);return F.flush(),await Af(F,Ae,4),F.bindBuffer(F.PIXEL_PACK_BUFFER,de),F.getBufferSubData(F.PIXEL_PACK_BUFFER,0,Et),F.bindBuffer(F.PIXEL_PACK_BUFFER,null),F.deleteBuffer(de),F.deleteSync(Ae),Et}else throw new Error("THREE.WebGLRenderer.readRenderTargetPixelsAsync: requested read bounds are out of range.")},this.copyFramebufferToTexture=function(S,O=null,K=0){let X=Math.pow(2,-K),q=Math.floor(S.image.width*X),Et=Math.floor(S.image.height*X),Pt=O!==null?O.x:0,Tt=O!==null?O.y:0;Xt.setTexture2D(S,0),F.copyTexSubImage2D(F.TEXTURE_2D,K,0,0,Pt,Tt,q,Et),bt.unbindTexture()},this.copyTextureToTexture=function(S,O,K=null,X=null,q=0,Et=0){let Pt,Tt,It,kt,Kt,ue,Bt,de,We,Ae=S.isCompressedTexture?S.mipmaps[Et]:S.image;if(K!==null)Pt=K.max.x-K.min.x,Tt=K.max.y-K.min.y,It=K.isBox3?K.max.z-K.min.z:1,kt=K.min.x,Kt=K.min.y,ue=K.isBox3?K.min.z:0;else{let le=Math.pow(2,-q);Pt=Math.floor(Ae.width*le),Tt=Math.floor(Ae.height*le),S.isDataArrayTexture?It=Ae.depth:S.isData3DTexture?It=Math.floor(Ae.depth*le):It=1,kt=0,Kt=0,ue=0}X!==null?(Bt=X.x,de=X.y,We=X.z):(Bt=0,de=0,We=0);let Re=gt.convert(O.format),hn=gt.convert(O.type),Ut;O.isData3DTexture?(Xt.setTexture3D(O,0),Ut=F.TEXTURE_3D):O.isDataArrayTexture||O.isCompressedArrayTexture?(Xt.setTexture2DArray(O,0),Ut=F.TEXTURE_2D_ARRAY):(Xt.setTexture2D(O,0),Ut=F.TEXTURE_2D),bt.activeTexture(F.TEXTURE0),bt.pixelStorei(F.UNPACK_FLIP_Y_WEBGL,O.flipY),bt.pixelStorei(F.UNPACK_PREMULTIPLY_ALPHA_WEBGL,O.premultiplyAlpha),bt.pixelStorei(F.UNPACK_ALIGNMENT,O.unpackAlignment);let nn=bt.getParameter(F.UNPACK_ROW_LENGTH),me=bt.getParameter(F.UNPACK_IMAGE_HEIGHT),qi=bt.getParameter(F.UNPACK_SKIP_PIXELS),sn=bt.getParameter(F.UNPACK_SKIP_ROWS),rr=bt.getParameter(F.UNPACK_SKIP_IMAGES);bt.pixelStorei(F.UNPACK_ROW_LENGTH,Ae.width),bt.pixelStorei(F.UNPACK_IMAGE_HEIGHT,Ae.height),bt.pixelStorei(F.UNPACK_SKIP_PIXELS,kt),bt.pixelStorei(F.UNPACK_SKIP_ROWS,Kt),bt.pixelStorei(F.UNPACK_SKIP_IMAGES,ue);let Pi=S.isDataArrayTexture||S.isData3DTexture,$i=O.isDataArrayTexture||O.isData3DTexture;if(S.isDepthTexture){let le=zt.get(S),Ze=zt.get(O),Pn=zt.get(le.__renderTarget),Ce=zt.get(Ze.__renderTarget);bt.bindFramebuffer(F.READ_FRAMEBUFFER,Pn.__webglFramebuffer),bt.bindFramebuffer(F.DRAW_FRAMEBUFFER,Ce.__webglFramebuffer);for(let rn=0;rn<It;rn++)Pi&&(F.framebufferTextureLayer(F.READ_FRAMEBUFFER,F.COLOR_ATTACHMENT0,zt.get(S).__webglTexture,q,ue+rn),F.framebufferTextureLayer(F.DRAW_FRAMEBUFFER,F.COLOR_ATTACHMENT0,zt.get(O).__webglTexture,Et,We+rn)),F.blitFramebuffer(kt,Kt,kt+Pt,Kt+Tt,Bt,de,Bt+Pt,de+Tt,F.DEPTH_BUFFER_BIT,F.NEAREST);bt.bindFramebuffer(F.READ_FRAMEBUFFER,null),bt.bindFramebuffer(F.DRAW_FRAMEBUFFER,null)}else if(q!==0||S.isRenderTargetTexture||zt.has(S)){let le=zt.get(S),Ze=zt.get(O);bt.bindFramebuffer(F.READ_FRAMEBUFFER,D),bt.bindFramebuffer(F.DRAW_FRAMEBUFFER,V);for(let Pn=0;Pn<It;Pn++)Pi?F.framebufferTextureLayer(F.READ_FRAMEBUFFER,F.COLOR_ATTACHMENT0,le.__webglTexture,q,ue+Pn):F.framebufferTexture2D(F.READ_FRAMEBUFFER,F.COLOR_ATTACHMENT0,F.TEXTURE_2D,le.__webglTexture,q),$i?F.framebufferTextureLayer(F.DRAW_FRAMEBUFFER,F.COLOR_ATTACHMENT0,Ze.__webglTexture,Et,We+Pn):F.framebufferTexture2D(F.DRAW_FRAMEBUFFER,F.COLOR_ATTACHMENT0,F.TEXTURE_2D,Ze.__webglTexture,Et),q!==0?F.blitFramebuffer(kt,Kt,kt+Pt,Kt+Tt,Bt,de,Bt+Pt,de+Tt,F.COLOR_BUFFER_BIT,F.NEAREST):$i?F.copyTexSubImage3D(Ut,Et,Bt,de,We+Pn,kt,Kt,Pt,Tt):F.copyTexSubImage2D(Ut,Et,Bt,de,kt,Kt,Pt,Tt);bt.bindFramebuffer(F.READ_FRAMEBUFFER,null),bt.bindFramebuffer(F.DRAW_FRAMEBUFFER,null)}else $i?S.isDataTexture||S.isData3DTexture?F.texSubImage3D(Ut,Et,Bt,de,We,Pt,Tt,It,Re,hn,Ae.data):O.isCompressedArrayTexture?F.compressedTexSubImage3D(Ut,Et,Bt,de,We,Pt,Tt,It,Re,Ae.data):F.texSubImage3D(Ut,Et,Bt,de,We,Pt,Tt,It,Re,hn,Ae):S.isDataTexture?F.texSubImage2D(F.TEXTURE_2D,Et,Bt,de,Pt,Tt,Re,hn,Ae.data):S.isCompressedTexture?F.compressedTexSubImage2D(F.TEXTURE_2D,Et,Bt,de,Ae.width,Ae.height,Re,Ae.data):F.texSubImage2D(F.TEXTURE_2D,Et,Bt,de,Pt,Tt,Re,hn,Ae);bt.pixelStorei(F.UNPACK_ROW_LENGTH,nn),bt.pixelStorei(F.UNPACK_IMAGE_HEIGHT,me),bt.pixelStorei(F.UNPACK_SKIP_PIXELS,qi),bt.pixelStorei(F.UNPACK_SKIP_ROWS,sn),bt.pixelStorei(F.UNPACK_SKIP_IMAGES,rr),Et===0&&O.generateMipmaps===!0&&O.mipmapsAutoUpdate===!0&&F.generateMipmap(Ut),bt.unbindTexture()},this.initRenderTarget=function(S){zt.get(S).__webglFramebuffer===void 0&&Xt.setupRenderTarget(S)},this.initTexture=function(S){S.isCubeTexture?Xt.setTextureCube(S,0):S.isData3DTexture?Xt.setTexture3D(S,0):S.isDataArrayTexture||S.isCompressedArrayTexture?Xt.setTexture2DArray(S,0):Xt.setTexture2D(S,0),bt.unbindTexture()},this.resetState=function(){Y=0,k=0,ct=null,bt.reset(),St.reset()},typeof __THREE_DEVTOOLS__<"u"&&__THREE_DEVTOOLS__.dispatchEvent(new CustomEvent("observe",{detail:this}))}get coordinateSystem(){return oi}get outputColorSpace(){return this._outputColorSpace}set outputColorSpace(t){this._outputColorSpace=t;let e=this.getContext();e.drawingBufferColorSpace=ge._getDrawingBufferColorSpace(t),e.unpackColorSpace=ge._getUnpackColorSpace()}};var fp={type:"change"},su={type:"start"},mp={type:"end"},Jl=new Hs,pp=new Yn,Qv=Math.cos(70*Oh.DEG2RAD),fn=new J,kn=2*Math.PI,be={NONE:-1,ROTATE:0,DOLLY:1,PAN:2,TOUCH_ROTATE:3,TOUCH_PAN:4,TOUCH_DOLLY_PAN:5,TOUCH_DOLLY_ROTATE:6},iu=1e-6,Kl=class extends Ia{constructor(t,e=null){super(t,e),this.state=be.NONE,this.target=new J,this.cursor=new J,this.minDistance=0,this.maxDistance=1/0,this.minZoom=0,this.maxZoom=1/0,this.minTargetRadius=0,this.maxTargetRadius=1/0,this.minPolarAngle=0,this.maxPolarAngle=Math.PI,this.minAzimuthAngle=-1/0,this.maxAzimuthAngle=1/0,this.enableDamping=!1,this.dampingFactor=.05,this.enableZoom=!0,this.zoomSpeed=1,this.enableRotate=!0,this.rotateSpeed=1,this.keyRotateSpeed=1,this.enablePan=!0,this.panSpeed=1,this.screenSpacePanning=!0,this.keyPanSpeed=7,this.zoomToCursor=!1,this.autoRotate=!1,this.autoRotateSpeed=2,this.keys={LEFT:"ArrowLeft",UP:"ArrowUp",RIGHT:"ArrowRight",BOTTOM:"ArrowDown"},this.mouseButtons={LEFT:As.ROTATE,MIDDLE:As.DOLLY,RIGHT:As.PAN},this.touches={ONE:Rs.ROTATE,TWO:Rs.DOLLY_PAN},this.target0=this.target.clone(),this.position0=this.object.position.clone(),this.zoom0=this.object.zoom,this._cursorStyle="auto",this._domElementKeyEvents=null,this._lastPosition=new J,this._lastQuaternion=new Jn,this._lastTargetPosition=new J,this._quat=new Jn().setFromUnitVectors(t.up,new J(0,1,0)),this._quatInverse=this._quat.clone().invert(),this._spherical=new Ur,this._sphericalDelta=new Ur,this._scale=1,this._panOffset=new J,this._rotateStart=new re,this._rotateEnd=new re,this._rotateDelta=new re,this._panStart=new re,this._panEnd=new re,this._panDelta=new re,this._dollyStart=new re,this._dollyEnd=new re,this._dollyDelta=new re,this._dollyDirection=new J,this._mouse=new re,this._performCursorZoom=!1,this._pointers=[],this._pointerPositions={},this._controlActive=!1,this._onPointerMove=eS.bind(this),this._onPointerDown=tS.bind(this),this._onPointerUp=nS.bind(this),this._onContextMenu=cS.bind(this),this._onMouseWheel=rS.bind(this),this._onKeyDown=aS.bind(this),this._onTouchStart=oS.bind(this),this._onTouchMove=lS.bind(this),this._onMouseDown=iS.bind(this),this._onMouseMove=sS.bind(this),this._interceptControlDown=hS.bind(this),this._interceptControlUp=uS.bind(this),this.domElement!==null&&this.connect(this.domElement),this.update()}set cursorStyle(t){this._cursorStyle=t,t==="grab"?this.domElement.style.cursor="grab":this.domElement.style.cursor="auto"}get cursorStyle(){return this._cursorStyle}connect(t){super.connect(t),this.domElement.addEventListener("pointerdown",this._onPointerDown),this.domElement.addEventListener("pointercancel",this._onPointerUp),this.domElement.addEventListener("contextmenu",this._onContextMenu),this.domElement.addEventListener("wheel",this._onMouseWheel,{passive:!1}),this.domElement.ownerDocument.addEventListener("keydown",this._interceptControlDown,{passive:!0,capture:!0}),this.domElement.style.touchAction="none"}disconnect(){this.state=be.NONE,this.domElement.removeEventListener("pointerdown",this._onPointerDown),this.domElement.ownerDocument.removeEventListener("pointermove",this._onPointerMove),this.domElement.ownerDocument.removeEventListener("pointerup",this._onPointerUp),this.domElement.removeEventListener("pointercancel",this._onPointerUp),this.domElement.removeEventListener("wheel",this._onMouseWheel),this.domElement.removeEventListener("contextmenu",this._onContextMenu),this.stopListenToKeyEvents(),this.domElement.ownerDocument.removeEventListener("keydown",this._interceptControlDown,{capture:!0}),this.domElement.ownerDocument.removeEventListener("keyup",this._interceptControlUp,{capture:!0}),this._controlActive=!1,this._pointers.length=0,this._pointerPositions={},this.domElement.style.touchAction="",this.domElement.style.cursor="auto"}dispose(){this.disconnect()}getPolarAngle(){return this._spherical.phi}getAzimuthalAngle(){return this._spherical.theta}getDistance(){return this.object.position.distanceTo(this.target)}listenToKeyEvents(t){t.addEventListener("keydown",this._onKeyDown),this._domElementKeyEvents=t}stopListenToKeyEvents(){this._domElementKeyEvents!==null&&(this._domElementKeyEvents.removeEventListener("keydown",this._onKeyDown),this._domElementKeyEvents=null)}saveState(){this.target0.copy(this.target),this.position0.copy(this.object.position),this.zoom0=this.object.zoom}reset(){this.target.copy(this.target0),this.object.position.copy(this.position0),this.object.zoom=this.zoom0,this.object.updateProjectionMatrix(),this.dispatchEvent(fp),this.update(),this.state=be.NONE}pan(t,e){this._pan(t,e),this.update()}dollyIn(t){this._dollyIn(t),this.update()}dollyOut(t){this._dollyOut(t),this.update()}rotateLeft(t){this._rotateLeft(t),this.update()}rotateUp(t){this._rotateUp(t),this.update()}update(t=null){let e=this.object.position;fn.copy(e).sub(this.target),fn.applyQuaternion(this._quat),this._spherical.setFromVector3(fn),this.autoRotate&&this.state===be.NONE&&this._rotateLeft(this._getAutoRotationAngle(t)),this.enableDamping?(this._spherical.theta+=this._sphericalDelta.theta*this.dampingFactor,this._spherical.phi+=this._sphericalDelta.phi*this.dampingFactor):(this._spherical.theta+=this._sphericalDelta.theta,this._spherical.phi+=this._sphericalDelta.phi);let n=this.minAzimuthAngle,s=this.maxAzimuthAngle;isFinite(n)&&isFinite(s)&&(n<-Math.PI?n+=kn:n>Math.PI&&(n-=kn),s<-Math.PI?s+=kn:s>Math.PI&&(s-=kn),n<=s?this._spherical.theta=Math.max(n,Math.min(s,this._spherical.theta)):this._spherical.theta=this._spherical.theta>(n+s)/2?Math.max(n,this._spherical.theta):Math.min(s,this._spherical.theta)),this._spherical.phi=Math.max(this.minPolarAngle,Math.min(this.maxPolarAngle,this._spherical.phi)),this._spherical.makeSafe(),this.enableDamping===!0?this.target.addScaledVector(this._panOffset,this.dampingFactor):this.target.add(this._panOffset),this.target.sub(this.cursor),this.target.clampLength(this.minTargetRadius,this.maxTargetRadius),this.target.add(this.cursor);let r=!1;if(this.zoomToCursor&&this._performCursorZoom||this.object.isOrthographicCamera)this._spherical.radius=this._clampDistance(this._spherical.radius);else{let a=this._spherical.radius;this._spherical.radius=this._clampDistance(this._spherical.radius*this._scale),r=a!=this._spherical.radius}if(fn.setFromSpherical(this._spherical),fn.applyQuaternion(this._quatInverse),e.copy(this.target).add(fn),this.object.lookAt(this.target),this.enableDamping===!0?(this._sphericalDelta.theta*=1-this.dampingFactor,this._sphericalDelta.phi*=1-this.dampingFactor,this._panOffset.multiplyScalar(1-this.dampingFactor)):(this._sphericalDelta.set(0,0,0),this._panOffset.set(0,0,0)),this.zoomToCursor&&this._performCursorZoom){let a=null;if(this.object.isPerspectiveCamera){let o=fn.length();a=this._clampDistance(o*this._scale);let l=o-a;this.object.position.addScaledVector(this._dollyDirection,l),this.object.updateMatrixWorld(),r=!!l}else if(this.object.isOrthographicCamera){let o=new J(this._mouse.x,this._mouse.y,0);o.unproject(this.object);let l=this.object.zoom;this.object.zoom=Math.max(this.minZoom,Math.min(this.maxZoom,this.object.zoom/this._scale)),this.object.updateProjectionMatrix(),r=l!==this.object.zoom;let c=new J(this._mouse.x,this._mouse.y,0);c.unproject(this.object),this.object.position.sub(c).add(o),this.object.updateMatrixWorld(),a=fn.length()}else console.warn("WARNING: OrbitControls.js encountered an unknown camera type - zoom to cursor disabled."),this.zoomToCursor=!1;a!==null&&(this.screenSpacePanning?this.target.set(0,0,-1).transformDirection(this.object.matrix).multiplyScalar(a).add(this.object.position):(Jl.origin.copy(this.object.position),Jl.direction.set(0,0,-1).transformDirection(this.object.matrix),Math.abs(this.object.up.dot(Jl.direction))<Qv?this.object.lookAt(this.target):(pp.setFromNormalAndCoplanarPoint(this.object.up,this.target),Jl.intersectPlane(pp,this.target))))}else if(this.object.isOrthographicCamera){let a=this.object.zoom;this.object.zoom=Math.max(this.minZoom,Math.min(this.maxZoom,this.object.zoom/this._scale)),a!==this.object.zoom&&(this.object.updateProjectionMatrix(),r=!0)}return this._scale=1,this._performCursorZoom=!1,r||this._lastPosition.distanceToSquared(this.object.position)>iu||8*(1-this._lastQuaternion.dot(this.object.quaternion))>iu||this._lastTargetPosition.distanceToSquared(this.target)>iu?(this.dispatchEvent(fp),this._lastPosition.copy(this.object.position),this._lastQuaternion.copy(this.object.quaternion),this._lastTargetPosition.copy(this.target),!0):!1}_getAutoRotationAngle(t){return t!==null?kn/60*this.autoRotateSpeed*t:kn/60/60*this.autoRotateSpeed}_getZoomScale(t){let e=Math.abs(t*.01);return Math.pow(.95,this.zoomSpeed*e)}_rotateLeft(t){this._sphericalDelta.theta-=t}_rotateUp(t){this._sphericalDelta.phi-=t}_panLeft(t,e){fn.setFromMatrixColumn(e,0),fn.multiplyScalar(-t),this._panOffset.add(fn)}_panUp(t,e){this.screenSpacePanning===!0?fn.setFromMatrixColumn(e,1):(fn.setFromMatrixColumn(e,0),fn.crossVectors(this.object.up,fn)),fn.multiplyScalar(t),this._panOffset.add(fn)}_pan(t,e){let n=this.domElement;if(this.object.isPerspectiveCamera){let s=this.object.position;fn.copy(s).sub(this.target);let r=fn.length();r*=Math.tan(this.object.fov/2*Math.PI/180),this._panLeft(2*t*r/n.clientHeight,this.object.matrix),this._panUp(2*e*r/n.clientHeight,this.object.matrix)}else this.object.isOrthographicCamera?(this._panLeft(t*(this.object.right-this.object.left)/this.object.zoom/n.clientWidth,this.object.matrix),this._panUp(e*(this.object.top-this.object.bottom)/this.object.zoom/n.clientHeight,this.object.matrix)):(console.warn("WARNING: OrbitControls.js encountered an unknown camera type - pan disabled."),this.enablePan=!1)}_dollyOut(t){this.object.isPerspectiveCamera||this.object.isOrthographicCamera?this._scale/=t:(console.warn("WARNING: OrbitControls.js encountered an unknown camera type - dolly/zoom disabled."),this.enableZoom=!1)}_dollyIn(t){this.object.isPerspectiveCamera||this.object.isOrthographicCamera?this._scale*=t:(console.warn("WARNING: OrbitControls.js encountered an unknown camera type - dolly/zoom disabled."),this.enableZoom=!1)}_updateZoomParameters(t,e){if(!this.zoomToCursor)return;this._performCursorZoom=!0;let n=this.domElement.getBoundingClientRect(),s=t-n.left,r=e-n.top,a=n.width,o=n.height;this._mouse.x=s/a*2-1,this._mouse.y=-(r/o)*2+1,this._dollyDirection.set(this._mouse.x,this._mouse.y,1).unproject(this.object).sub(this.object.position).normalize()}_clampDistance(t){return Math.max(this.minDistance,Math.min(this.maxDistance,t))}_handleMouseDownRotate(t){this._rotateStart.set(t.clientX,t.clientY)}_handleMouseDownDolly(t){this._updateZoomParameters(t.clientX,t.clientY),this._dollyStart.set(t.clientX,t.clientY)}_handleMouseDownPan(t){this._panStart.set(t.clientX,t.clientY)}_handleMouseMoveRotate(t){this._rotateEnd.set(t.clientX,t.clientY),this._rotateDelta.subVectors(this._rotateEnd,this._rotateStart).multiplyScalar(this.rotateSpeed);let e=this.domElement;this._rotateLeft(kn*this._rotateDelta.x/e.clientHeight),this._rotateUp(kn*this._rotateDelta.y/e.clientHeight),this._rotateStart.copy(this._rotateEnd),this.update()}_handleMouseMoveDolly(t){this._dollyEnd.set(t.clientX,t.clientY),this._dollyDelta.subVectors(this._dollyEnd,this._dollyStart),this._dollyDelta.y>0?this._dollyOut(this._getZoomScale(this._dollyDelta.y)):this._dollyDelta.y<0&&this._dollyIn(this._getZoomScale(this._dollyDelta.y)),this._dollyStart.copy(this._dollyEnd),this.zoomToCursor&&(this._performCursorZoom=!0,this._dollyDirection.set(this._mouse.x,this._mouse.y,1).unproject(this.object).sub(this.object.position).normalize()),this.update()}_handleMouseMovePan(t){this._panEnd.set(t.clientX,t.clientY),this._panDelta.subVectors(this._panEnd,this._panStart).multiplyScalar(this.panSpeed),this._pan(this._panDelta.x,this._panDelta.y),this._panStart.copy(this._panEnd),this.update()}_handleMouseWheel(t){this._updateZoomParameters(t.clientX,t.clientY),t.deltaY<0?this._dollyIn(this._getZoomScale(t.deltaY)):t.deltaY>0&&this._dollyOut(this._getZoomScale(t.deltaY)),this.update()}_handleKeyDown(t){let e=!1;switch(t.code){case this.keys.UP:t.ctrlKey||t.metaKey||t.shiftKey?this.enableRotate&&this._rotateUp(kn*this.keyRotateSpeed/this.domElement.clientHeight):this.enablePan&&this._pan(0,this.keyPanSpeed),e=!0;break;case this.keys.BOTTOM:t.ctrlKey||t.metaKey||t.shiftKey?this.enableRotate&&this._rotateUp(-kn*this.keyRotateSpeed/this.domElement.clientHeight):this.enablePan&&this._pan(0,-this.keyPanSpeed),e=!0;break;case this.keys.LEFT:t.ctrlKey||t.metaKey||t.shiftKey?this.enableRotate&&this._rotateLeft(kn*this.keyRotateSpeed/this.domElement.clientHeight):this.enablePan&&this._pan(this.keyPanSpeed,0),e=!0;break;case this.keys.RIGHT:t.ctrlKey||t.metaKey||t.shiftKey?this.enableRotate&&this._rotateLeft(-kn*this.keyRotateSpeed/this.domElement.clientHeight):this.enablePan&&this._pan(-this.keyPanSpeed,0),e=!0;break}e&&(t.preventDefault(),this.update())}_handleTouchStartRotate(t){if(this._pointers.length===1)this._rotateStart.set(t.pageX,t.pageY);else{let e=this._getSecondPointerPosition(t),n=.5*(t.pageX+e.x),s=.5*(t.pageY+e.y);this._rotateStart.set(n,s)}}_handleTouchStartPan(t){if(this._pointers.length===1)this._panStart.set(t.pageX,t.pageY);else{let e=this._getSecondPointerPosition(t),n=.5*(t.pageX+e.x),s=.5*(t.pageY+e.y);this._panStart.set(n,s)}}_handleTouchStartDolly(t){let e=this._getSecondPointerPosition(t),n=t.pageX-e.x,s=t.pageY-e.y,r=Math.sqrt(n*n+s*s);this._dollyStart.set(0,r)}_handleTouchStartDollyPan(t){this.enableZoom&&this._handleTouchStartDolly(t),this.enablePan&&this._handleTouchStartPan(t)}_handleTouchStartDollyRotate(t){this.enableZoom&&this._handleTouchStartDolly(t),this.enableRotate&&this._handleTouchStartRotate(t)}_handleTouchMoveRotate(t){if(this._pointers.length==1)this._rotateEnd.set(t.pageX,t.pageY);else{let n=this._getSecondPointerPosition(t),s=.5*(t.pageX+n.x),r=.5*(t.pageY+n.y);this._rotateEnd.set(s,r)}this._rotateDelta.subVectors(this._rotateEnd,this._rotateStart).multiplyScalar(this.rotateSpeed);let e=this.domElement;this._rotateLeft(kn*this._rotateDelta.x/e.clientHeight),this._rotateUp(kn*this._rotateDelta.y/e.clientHeight),this._rotateStart.copy(this._rotateEnd)}_handleTouchMovePan(t){if(this._pointers.length===1)this._panEnd.set(t.pageX,t.pageY);else{let e=this._getSecondPointerPosition(t),n=.5*(t.pageX+e.x),s=.5*(t.pageY+e.y);this._panEnd.set(n,s)}this._panDelta.subVectors(this._panEnd,this._panStart).multiplyScalar(this.panSpeed),this._pan(this._panDelta.x,this._panDelta.y),this._panStart.copy(this._panEnd)}_handleTouchMoveDolly(t){let e=this._getSecondPointerPosition(t),n=t.pageX-e.x,s=t.pageY-e.y,r=Math.sqrt(n*n+s*s);this._dollyEnd.set(0,r),this._dollyDelta.set(0,Math.pow(this._dollyEnd.y/this._dollyStart.y,this.zoomSpeed)),this._dollyOut(this._dollyDelta.y),this._dollyStart.copy(this._dollyEnd);let a=(t.pageX+e.x)*.5,o=(t.pageY+e.y)*.5;this._updateZoomParameters(a,o)}_handleTouchMoveDollyPan(t){this.enableZoom&&this._handleTouchMoveDolly(t),this.enablePan&&this._handleTouchMovePan(t)}_handleTouchMoveDollyRotate(t){this.enableZoom&&this._handleTouchMoveDolly(t),this.enableRotate&&this._handleTouchMoveRotate(t)}_addPointer(t){this._pointers.push(t.pointerId)}_removePointer(t){delete this._pointerPositions[t.pointerId];for(let e=0;e<this._pointers.length;e++)if(this._pointers[e]==t.pointerId){this._pointers.splice(e,1);return}}_isTrackingPointer(t){for(let e=0;e<this._pointers.length;e++)if(this._pointers[e]==t.pointerId)return!0;return!1}_trackPointer(t){let e=this._pointerPositions[t.pointerId];e===void 0&&(e=new re,this._pointerPositions[t.pointerId]=e),e.set(t.pageX,t.pageY)}_getSecondPointerPosition(t){let e=t.pointerId===this._pointers[0]?this._pointers[1]:this._pointers[0];return this._pointerPositions[e]}_customWheelEvent(t){let e=t.deltaMode,n={clientX:t.clientX,clientY:t.clientY,deltaY:t.deltaY};switch(e){case 1:n.deltaY*=16;break;case 2:n.deltaY*=100;break}return t.ctrlKey&&!this._controlActive&&(n.deltaY*=10),n}};function tS(i){this.enabled!==!1&&(this._pointers.length===0&&(this.domElement.setPointerCapture(i.pointerId),this.domElement.ownerDocument.addEventListener("pointermove",this._onPointerMove),this.domElement.ownerDocument.addEventListener("pointerup",this._onPointerUp)),!this._isTrackingPointer(i)&&(this._addPointer(i),i.pointerType==="touch"?this._onTouchStart(i):this._onMouseDown(i),this._cursorStyle==="grab"&&(this.domElement.style.cursor="grabbing")))}function eS(i){this.enabled!==!1&&(i.pointerType==="touch"?this._onTouchMove(i):this._onMouseMove(i))}function nS(i){switch(this._removePointer(i),this._pointers.length){case 0:this.domElement.releasePointerCapture(i.pointerId),this.domElement.ownerDocument.removeEventListener("pointermove",this._onPointerMove),this.domElement.ownerDocument.removeEventListener("pointerup",this._onPointerUp),this.dispatchEvent(mp),this.state=be.NONE,this._cursorStyle==="grab"&&(this.domElement.style.cursor="grab");break;case 1:let t=this._pointers[0],e=this._pointerPositions[t];this._onTouchStart({pointerId:t,pageX:e.x,pageY:e.y});break}}function iS(i){let t;switch(i.button){case 0:t=this.mouseButtons.LEFT;break;case 1:t=this.mouseButtons.MIDDLE;break;case 2:t=this.mouseButtons.RIGHT;break;default:t=-1}switch(t){case As.DOLLY:if(this.enableZoom===!1)return;this._handleMouseDownDolly(i),this.state=be.DOLLY;break;case As.ROTATE:if(i.ctrlKey||i.metaKey||i.shiftKey){if(this.enablePan===!1)return;this._handleMouseDownPan(i),this.state=be.PAN}else{if(this.enableRotate===!1)return;this._handleMouseDownRotate(i),this.state=be.ROTATE}break;case As.PAN:if(i.ctrlKey||i.metaKey||i.shiftKey){if(this.enableRotate===!1)return;this._handleMouseDownRotate(i),this.state=be.ROTATE}else{if(this.enablePan===!1)return;this._handleMouseDownPan(i),this.state=be.PAN}break;default:this.state=be.NONE}this.state!==be.NONE&&this.dispatchEvent(su)}function sS(i){switch(this.state){case be.ROTATE:if(this.enableRotate===!1)return;this._handleMouseMoveRotate(i);break;case be.DOLLY:if(this.enableZoom===!1)return;this._handleMouseMoveDolly(i);break;case be.PAN:if(this.enablePan===!1)return;this._handleMouseMovePan(i);break}}function rS(i){this.enabled===!1||this.enableZoom===!1||this.state!==be.NONE||(i.preventDefault(),this.dispatchEvent(su),this._handleMouseWheel(this._customWheelEvent(i)),this.dispatchEvent(mp))}function aS(i){this.enabled!==!1&&this._handleKeyDown(i)}function oS(i){switch(this._trackPointer(i),this._pointers.length){case 1:switch(this.touches.ONE){case Rs.ROTATE:if(this.enableRotate===!1){this.state=be.NONE;break}this._handleTouchStartRotate(i),this.state=be.TOUCH_ROTATE;break;case Rs.PAN:if(this.enablePan===!1){this.state=be.NONE;break}this._handleTouchStartPan(i),this.state=be.TOUCH_PAN;break;default:this.state=be.NONE}break;case 2:switch(this.touches.TWO){case Rs.DOLLY_PAN:if(this.enableZoom===!1&&this.enablePan===!1)return;this._handleTouchStartDollyPan(i),this.state=be.TOUCH_DOLLY_PAN;break;case Rs.DOLLY_ROTATE:if(this.enableZoom===!1&&this.enableRotate===!1)return;this._handleTouchStartDollyRotate(i),this.state=be.TOUCH_DOLLY_ROTATE;break;default:this.state=be.NONE}break;default:this.state=be.NONE}this.state!==be.NONE&&this.dispatchEvent(su)}function lS(i){switch(this._trackPointer(i),this.state){case be.TOUCH_ROTATE:if(this.enableRotate===!1)return;this._handleTouchMoveRotate(i),this.update();break;case be.TOUCH_PAN:if(this.enablePan===!1)return;this._handleTouchMovePan(i),this.update();break;case be.TOUCH_DOLLY_PAN:if(this.enableZoom===!1&&this.enablePan===!1)return;this._handleTouchMoveDollyPan(i),this.update();break;case be.TOUCH_DOLLY_ROTATE:if(this.enableZoom===!1&&this.enableRotate===!1)return;this._handleTouchMoveDollyRotate(i),this.update();break;default:this.state=be.NONE}}function cS(i){this.enabled!==!1&&i.preventDefault()}function hS(i){i.key==="Control"&&(this._controlActive=!0,this.domElement.ownerDocument.addEventListener("keyup",this._interceptControlUp,{passive:!0,capture:!0}))}function uS(i){i.key==="Control"&&(this._controlActive=!1,this.domElement.ownerDocument.removeEventListener("keyup",this._interceptControlUp,{passive:!0,capture:!0}))}function tt(i,t={},...e){let n=document.createElement(i);for(let[s,r]of Object.entries(t))r!=null&&(s==="onclick"?n.addEventListener("click",r):n.setAttribute(s,r));for(let s of e.flat())s!=null&&n.append(s instanceof Node?s:String(s));return n}function zn(i,t,e={}){return tt("table",e,tt("thead",{},tt("tr",{},i.map(n=>tt("th",{},n)))),tt("tbody",{},t.map(n=>tt("tr",{},n.map(s=>tt("td",{},s))))))}function wi(i,t){let e=0,n=i.length;for(;e<n;){let s=e+n>>1;i[s]<=t?e=s+1:n=s}return e-1}function ne(i,t=6){return String(typeof i!="number"?i:Number(i.toFixed(t)))}function gp(i){let t=["bytes","KiB","MiB","GiB","TiB"],e=0;for(;i>=1024&&e<t.length-1;)i/=1024,e++;return e===0?`${i} bytes`:`${i.toFixed(1)} ${t[e]}`}var dS=8;function ru(i){let t=new DataView(i).getUint32(0,!0),e=JSON.parse(new TextDecoder().decode(new Uint8Array(i,4,t))),n=4+t,s=new Float32Array(i,n,3*e.count),r=new Uint8Array(i,n+12*e.count,3*e.count);return{header:e,positions:s,colors:r}}var jl=class{constructor(t,e,n){let s=t.streams.filter(o=>o.kind==="depth");this.stream=s[0],this.source=e,this.viewer=n,this.canvas=tt("canvas",{id:"cloud-canvas",class:"cloud"}),this.caption=tt("div",{class:"frame-info",id:"cloud-info"},"loading\u2026");let r=tt("button",{type:"button",id:"cloud-reset",title:"look from the depth camera again",onclick:()=>this.resetView()},"reset view"),a=this.stream?this.stream.key:"";s.length>1&&(a=tt("select",{id:"cloud-stream",title:"the depth stream shown in 3D"},s.map(o=>tt("option",{value:o.key},o.key))),a.addEventListener("change",()=>this.choose(a.value))),this.depths=s,this.node=tt("figure",{class:"cloud",id:"cloud"},tt("figcaption",{},"3D \xB7 ",a," ",r),this.canvas,this.caption),this.wanted=null,this.pending=null,this.loading=!1,this.shown=null,this.three=null}setUp(){let t=new $l({canvas:this.canvas,antialias:!1,preserveDrawingBuffer:!0});t.outputColorSpace=Vs,t.setPixelRatio(window.devicePixelRatio||1),t.setClearColor(2236962);let e=new Nn(60,1,.01,1e3);e.up.set(0,-1,0);let n=new Kl(e,this.canvas);n.addEventListener("change",()=>this.render());let s=new Sa,r=new Lr({vertexColors:!0,sizeAttenuation:!1}),a=new wa(new ci,r);s.add(a),this.three={renderer:t,camera:e,controls:n,scene:s,points:a}}fit(t){let{renderer:e,camera:n,points:s}=this.three,r=Math.max(200,Math.min(960,this.node.clientWidth||640)),a=Math.round(r*t.height/Math.max(1,t.width));e.setSize(r,a);let o=t.intrinsics?t.intrinsics.fy:t.height;n.fov=2*Math.atan(t.height/2/o)*180/Math.PI,n.aspect=r/a,n.updateProjectionMatrix(),s.material.size=Math.min(dS,Math.max(1,Math.round(r/Math.max(1,t.width/t.step))))}choose(t){let e=this.depths.find(n=>n.key===t);!e||e===this.stream||(this.stream=e,this.showTime(this.viewer.time,performance.now()))}resetView(){if(!this.three||!this.shown)return;let{camera:t,controls:e}=this.three,n=[];for(let r=2;r<this.shown.positions.length;r+=3)n.push(this.shown.positions[r]);n.sort((r,a)=>r-a);let s=n.length?n[n.length>>1]:1;t.position.set(0,0,0),e.target.set(0,0,s),t.lookAt(e.target),e.update(),this.render()}render(){this.three&&this.three.renderer.render(this.three.scene,this.three.camera)}showTime(t,e){if(!this.stream)return;let n=this.stream.frames.t;if(n.length===0)return;let s=Math.max(0,wi(n,t)),r=this.viewer.depth.query(),{key:a}=this.stream,o=this.wanted||this.pending||this.shown;o&&o.key===a&&o.index===s&&o.query===r||(this.wanted={key:a,index:s,query:r,askedAt:e},this.load())}settingsChanged(){this.showTime(this.viewer.time,performance.now())}async load(){if(!this.loading){for(this.loading=!0;this.wanted;){let t=this.wanted;this.wanted=null,this.pending=t;try{let e=await this.source.cloud(t.key,t.index,t.query);this.wanted||this.draw(e,t)}catch(e){this.caption.textContent=String(e.message||e)}this.pending=null}this.loading=!1}}draw(t,e){let n=!this.three;n&&this.setUp();let s=n||this.shown.key!==e.key;s&&this.fit(t.header);let{points:r}=this.three;r.geometry.dispose();let a=new ci;a.setAttribute("position",new Zn(t.positions,3)),a.setAttribute("color",new Zn(t.colors,3,!0)),r.geometry=a,this.shown={...t,key:e.key,index:e.index,query:e.query},s?this.resetView():this.render();let{header:o}=t,l=o.color?`colours of ${o.color.stream} frame #${o.color.number}`:"colours of the depth (no colour stream)",c=o.step>1?` (every ${o.step}th pixel)`:"";this.caption.textContent=`${o.count} points${c} \xB7 ${o.stream} frame #${o.number} \xB7 ${ne(o.t,6)} s \xB7 ${l}`,this.canvas.dataset.index=o.index}project([t,e,n]){let{camera:s}=this.three;s.updateMatrixWorld();let r=new J(t,e,n).project(s);return{x:(r.x+1)/2*this.canvas.width,y:(1-r.y)/2*this.canvas.height,depth:r.z}}matrices(){let{camera:t,points:e,renderer:n}=this.three;return t.updateMatrixWorld(),{projection:t.projectionMatrix.toArray(),view:t.matrixWorldInverse.toArray(),width:this.canvas.width,height:this.canvas.height,point_size:e.material.size*n.getPixelRatio()}}settled(){return!this.loading&&!this.wanted}};var fS=["Jet","Classic","White to Black","Black to White","Bio","Cold","Warm","Quantized","Pattern","Hue"],au=[{name:"decimation",options:[{key:"magnitude",value:2,min:1,max:8,step:1}]},{name:"threshold",options:[{key:"min",value:.15,min:0,max:16,step:.05,unit:"m"},{key:"max",value:4,min:0,max:16,step:.05,unit:"m"}]},{name:"spatial",disparity:!0,options:[{key:"alpha",value:.5,min:.25,max:1,step:.05}]},{name:"temporal",disparity:!0,options:[{key:"alpha",value:.4,min:0,max:1,step:.05}]},{name:"hole-filling",options:[{key:"mode",value:1,min:0,max:2,step:1}]}];function pS(i,t){let e=[],n=au.filter(a=>i[a.name]),s=t?n.findIndex(a=>a.disparity):-1,r=t?n.map(a=>a.disparity===!0).lastIndexOf(!0):-1;return n.forEach((a,o)=>{o===s&&e.push("depth-to-disparity");let l=a.options.map(c=>`${c.key}=${i[a.name][c.key]}`);e.push(`${a.name}:${l.join(",")}`),o===r&&e.push("disparity-to-depth")}),e}var Ql=class{constructor(t,e){this.changed=t,this.stereo=e,this.scheme=null,this.equalize=!0,this.range={near:.3,far:4},this.filters=[]}controls(){let t=tt("select",{id:"depth-scheme",title:"depth colours"},tt("option",{value:""},"rsbag (legend)"),fS.map((s,r)=>tt("option",{value:r},`librealsense: ${s}`))),e=tt("input",{id:"depth-equalize",type:"checkbox",checked:""}),n=tt("label",{hidden:""},e," equalize");return t.addEventListener("change",()=>{this.scheme=t.value===""?null:Number(t.value),n.hidden=this.scheme===null,this.changed()}),e.addEventListener("change",()=>{this.equalize=e.checked,this.changed()}),tt("span",{class:"depth-settings"},t,n,this.filterControls())}filterControls(){let t={},e=Object.fromEntries(au.map(r=>[r.name,Object.fromEntries(r.options.map(a=>[a.key,a.value]))])),n=()=>{this.filters=pS(t,this.stereo),this.changed()},s=au.map(r=>{let a=tt("input",{id:`filter-${r.name}`,type:"checkbox"});a.addEventListener("change",()=>{t[r.name]=a.checked?e[r.name]:void 0,n()});let o=r.options.map(l=>{let c=tt("input",{id:`filter-${r.name}-${l.key}`,class:"filter-option",type:"number",title:`${r.name} ${l.key}${l.unit?` (${l.unit})`:""}`,min:l.min,max:l.max,step:l.step,value:l.value});return c.addEventListener("change",()=>{let h=Number(c.value);if(c.value===""||!(h>=l.min&&h<=l.max)){c.value=e[r.name][l.key];return}e[r.name][l.key]=h,t[r.name]&&n()}),c});return tt("label",{title:`librealsense's ${r.name} filter`},a,` ${r.name} `,o)});return tt("span",{class:"depth-filters"}," filters:",s)}setRange(t){this.range=t,this.changed()}query(){let t=this.filters.map(e=>`&filter=${encodeURIComponent(e)}`);if(this.scheme!==null){let e=[`color-scheme=${this.scheme}`,`min=${this.range.near}`,`max=${this.range.far}`,`histogram-equalization=${this.equalize?1:0}`];t.push(`&colorizer=${encodeURIComponent(e.join(","))}`)}return t.join("")}};function ou(i,t){let e=Math.min(1,Math.max(0,1.5-Math.abs(4*i-t)));return Math.round(e*255)}var Wa=Array.from({length:256},(i,t)=>{let e=t/255;return[ou(e,3),ou(e,2),ou(e,1)]});function _p(i,t,e){let n=Math.min(1,Math.max(0,(i-t)/(e-t)));return Math.round(n*255)}var lu={key:"",table:null};function mS(i,{near:t,far:e}){let n=`${i} ${t} ${e}`;if(lu.key!==n){let s=new Uint32Array(65536),r=new Uint8Array(s.buffer);r[3]=255;for(let a=1;a<65536;a++){let[o,l,c]=Wa[_p(a*i,t,e)];r[4*a]=o,r[4*a+1]=l,r[4*a+2]=c,r[4*a+3]=255}lu={key:n,table:s}}return lu.table}function hu(i,t){let{header:e,pixels:n}=i,s=e.width*e.height,r=new Uint8ClampedArray(s*4);switch(e.layout){case"depth16":{if(i.colors)return gS(i.colors,e);let a=mS(e.depth_units,t),o=new Uint32Array(r.buffer);for(let l=0;l<s;l++)o[l]=a[n[2*l]|n[2*l+1]<<8];break}case"gray16":for(let a=0;a<s;a++)r[4*a]=r[4*a+1]=r[4*a+2]=n[2*a+1],r[4*a+3]=255;break;case"gray8":for(let a=0;a<s;a++)r[4*a]=r[4*a+1]=r[4*a+2]=n[a],r[4*a+3]=255;break;case"rgb8":for(let a=0;a<s;a++)r[4*a]=n[3*a],r[4*a+1]=n[3*a+1],r[4*a+2]=n[3*a+2],r[4*a+3]=255;break;case"rgba8":r.set(n.subarray(0,s*4));break;default:r.fill(255)}return new ImageData(r,e.width,e.height)}function gS(i,{width:t,height:e}){let n=new Uint8ClampedArray(t*e*4);for(let s=0;s<t*e;s++)n[4*s]=i[3*s],n[4*s+1]=i[3*s+1],n[4*s+2]=i[3*s+2],n[4*s+3]=255;return new ImageData(n,t,e)}function uu(i,t,e){let{header:n,pixels:s}=i,r=e*n.width+t,a=new DataView(s.buffer,s.byteOffset,s.byteLength);switch(n.layout){case"depth16":{let o=a.getUint16(2*r,!0);return o===0?"no depth":`${(o*n.depth_units).toFixed(4)} m (${o})`}case"gray16":return`${a.getUint16(2*r,!0)}`;case"gray8":return`${s[r]}`;case"rgb8":return`RGB ${s[3*r]}, ${s[3*r+1]}, ${s[3*r+2]}`;case"rgba8":return`RGBA ${Array.from(s.slice(4*r,4*r+4)).join(", ")}`;default:return""}}var cu=class{constructor(t,e,n){this.stream=t,this.source=e,this.viewer=n,this.canvas=tt("canvas",{class:"frame","data-stream":t.key}),this.caption=tt("div",{class:"frame-info","data-stream":t.key},"loading\u2026"),this.figure=tt("figure",{class:"stream","data-stream":t.key},tt("figcaption",{},`${t.key} \xB7 ${t.format} ${t.width}\xD7${t.height}`),this.canvas,this.caption),t.kind==="depth"&&(this.legend=tt("canvas",{class:"legend",width:256,height:1,"data-stream":t.key}),this.legendLabels=tt("div",{class:"legend-labels"}),this.figure.append(this.legend,this.legendLabels)),this.wanted=null,this.pending=null,this.blank=null,this.loading=!1,this.shown=null,this.canvas.addEventListener("mousemove",s=>this.hover(s)),this.canvas.addEventListener("mouseleave",()=>n.tooltip.hide())}showTime(t,e){let n=this.stream.frames.t;if(n.length===0)return;let s=wi(n,t),r=this.viewer.session?s:Math.max(0,s),a=this.wanted||this.pending||(this.shown?this.shown.header:this.blank);a&&a.index===r||(this.wanted={index:r,askedAt:e},this.load())}shownWidth(){let t=this.canvas.clientWidth||this.figure.clientWidth||480;return Math.ceil(t*(window.devicePixelRatio||1))}async load(){if(!this.loading){for(this.loading=!0;this.wanted;){let t=this.wanted;if(this.wanted=null,this.pending=t,t.index<0){this.clear(),this.pending=null;continue}try{let e=this.shownWidth();this.source.live&&this.stream.width>e&&await this.fetchAndDraw(t,e),this.wanted||await this.fetchAndDraw(t,null)}catch(e){this.caption.textContent=String(e.message||e)}this.pending=null}this.loading=!1}}async fetchAndDraw(t,e){let n=performance.now(),s=this.stream.kind==="depth"?this.viewer.depth.query():"",r=await this.source.frame(this.stream.key,t.index,e,s);r.query=s;let a=performance.now();if(e===null&&this.wanted)return;this.draw(r);let o=performance.now();this.viewer.noteShown({stream:this.stream.key,index:r.header.index,preview:r.header.width<r.header.full_width,latency_ms:o-t.askedAt,fetch_ms:a-n,draw_ms:o-a})}clear(){this.shown=null,this.blank={index:-1},this.canvas.getContext("2d").clearRect(0,0,this.canvas.width,this.canvas.height),delete this.canvas.dataset.index,delete this.canvas.dataset.number,this.caption.textContent=`no frame yet: the first is at ${ne(this.stream.frames.t[0],6)} s`}draw(t){this.shown=t,this.blank=null;let{header:e}=t;(this.canvas.width!==e.width||this.canvas.height!==e.height)&&(this.canvas.width=e.width,this.canvas.height=e.height),this.canvas.getContext("2d").putImageData(hu(t,this.viewer.depthRange),0,0),this.canvas.dataset.index=e.index,this.canvas.dataset.number=e.number;let n=this.viewer.session?`${ne(this.stream.frames.t[e.index],6)} s (${ne(e.t,6)} s in its recording)`:`${ne(e.t,6)} s`;this.caption.textContent=`frame #${e.number} \xB7 ${ne(e.timestamp,3)} ms (${e.domain}) \xB7 ${n}`,this.legend&&this.drawLegend()}drawLegend(){let{near:t,far:e}=this.viewer.depthRange,{header:n}=this.shown,s=n.colors?n.legend:Wa;if(this.legend.hidden=!s,this.legendLabels.hidden=!s,!s)return;let r=this.legend.getContext("2d"),a=new ImageData(s.length,1);s.forEach(([l,c,h],d)=>a.data.set([l,c,h,255],4*d)),this.legend.width=s.length,r.putImageData(a,0,0),this.legend.dataset.near=t,this.legend.dataset.far=e;let o=[0,.25,.5,.75,1].map(l=>tt("span",{},`${ne(t+l*(e-t),2)} m`));this.legendLabels.replaceChildren(...o)}redraw(){this.shown&&this.draw(this.shown)}settingsChanged(){if(!this.shown)return;let t=this.viewer.depth.query();if(this.stream.kind!=="depth"||this.shown.query===t){this.redraw();return}this.wanted={index:this.shown.header.index,askedAt:performance.now()},this.load()}hover(t){if(!this.shown)return;let{header:e}=this.shown,n=this.canvas.getBoundingClientRect(),s=Math.floor((t.clientX-n.left)/n.width*e.width),r=Math.floor((t.clientY-n.top)/n.height*e.height);if(s<0||r<0||s>=e.width||r>=e.height)return;let a=Math.ceil(e.full_width/e.width),o=a===1?`${s}, ${r}`:`${s*a}, ${r*a} (preview: every ${a}th pixel)`,l=[`${e.stream} frame #${e.number} (${e.index+1} of ${this.stream.frames.t.length})`,`timestamp ${ne(e.timestamp,3)} ms, ${e.domain}`,`pixel ${o}: ${uu(this.shown,s,r)}`,...Object.entries(e.metadata).map(([c,h])=>`${c}: ${h}`)];this.viewer.tooltip.show(t,l)}},tc=class{constructor(t,e,n){this.views=t.streams.filter(s=>s.kind==="depth"||s.kind==="image").map(s=>new cu(s,e,n)),this.node=tt("div",{id:"pictures"},this.views.map(s=>s.figure)),this.views.length===0&&this.node.append(tt("p",{},"The recording has no video stream."))}showTime(t,e){for(let n of this.views)n.showTime(t,e)}redraw(){for(let t of this.views)t.redraw()}settingsChanged(){for(let t of this.views)t.settingsChanged()}shown(){return Object.fromEntries(this.views.filter(t=>t.shown).map(t=>[t.stream.key,t.shown]))}settled(){return this.views.every(t=>!t.loading&&!t.wanted)}};var _S="uplot",xS="u-hz",yS="u-vt",vS="u-title",SS="u-wrap",MS="u-under",bS="u-over",wS="u-axis",js="u-off",ES="u-select",TS="u-cursor-x",AS="u-cursor-y",RS="u-cursor-pt",CS="u-legend",PS="u-live",IS="u-inline",LS="u-series",DS="u-marker",xp="u-label",NS="u-value",qa="width",$a="height";var yp="bottom",Hr="left",du="right",Cu="#000",vp=Cu+"0",fu="mousemove",Sp="mousedown",pu="mouseup",Mp="mouseenter",bp="mouseleave",wp="dblclick",US="resize",FS="scroll",Ep="change",ac="dppxchange",Pu="--",Jr=typeof window<"u",yu=Jr?document:null,Xr=Jr?window:null,OS=Jr?navigator:null,we,nc;function vu(){let i=devicePixelRatio;we!=i&&(we=i,nc&&Mu(Ep,nc,vu),nc=matchMedia(`(min-resolution: ${we-.001}dppx) and (max-resolution: ${we+.001}dppx)`),Qs(Ep,nc,vu),Xr.dispatchEvent(new CustomEvent(ac)))}function ei(i,t){if(t!=null){let e=i.classList;!e.contains(t)&&e.add(t)}}function Su(i,t){let e=i.classList;e.contains(t)&&e.remove(t)}function Ve(i,t,e){i.style[t]=e+"px"}function Ei(i,t,e,n){let s=yu.createElement(i);return t!=null&&ei(s,t),e?.insertBefore(s,n),s}function hi(i,t){return Ei("div",i,t)}var Tp=new WeakMap;function Hi(i,t,e,n,s){let r="translate("+t+"px,"+e+"px)",a=Tp.get(i);r!=a&&(i.style.transform=r,Tp.set(i,r),t<0||e<0||t>n||e>s?ei(i,js):Su(i,js))}var Ap=new WeakMap;function Rp(i,t,e){let n=t+e,s=Ap.get(i);n!=s&&(Ap.set(i,n),i.style.background=t,i.style.borderColor=e)}var Cp=new WeakMap;function Pp(i,t,e,n){let s=t+""+e,r=Cp.get(i);s!=r&&(Cp.set(i,s),i.style.height=e+"px",i.style.width=t+"px",i.style.marginLeft=n?-t/2+"px":0,i.style.marginTop=n?-e/2+"px":0)}var Iu={passive:!0},BS={...Iu,capture:!0};function Qs(i,t,e,n){t.addEventListener(i,e,n?BS:Iu)}function Mu(i,t,e,n){t.removeEventListener(i,e,Iu)}Jr&&vu();function Ti(i,t,e,n){let s;e=e||0,n=n||t.length-1;let r=n<=2147483647;for(;n-e>1;)s=r?e+n>>1:ni((e+n)/2),t[s]<i?e=s:n=s;return i-t[e]<=t[n]-i?e:n}function sm(i){return(e,n,s)=>{let r=-1,a=-1;for(let o=n;o<=s;o++)if(i(e[o])){r=o;break}for(let o=s;o>=n;o--)if(i(e[o])){a=o;break}return[r,a]}}var rm=i=>i!=null,am=i=>i!=null&&i>0,cc=sm(rm),kS=sm(am);function zS(i,t,e,n=0,s=!1){let r=s?kS:cc,a=s?am:rm;[t,e]=r(i,t,e);let o=i[t],l=i[t];if(t>-1)if(n==1)o=i[t],l=i[e];else if(n==-1)o=i[e],l=i[t];else for(let c=t;c<=e;c++){let h=i[c];a(h)&&(h<o?o=h:h>l&&(l=h))}return[o??De,l??-De]}function hc(i,t,e,n){let s=Dp(i),r=Dp(t);i==t&&(s==-1?(i*=e,t/=e):(i/=e,t*=e));let a=e==10?as:om,o=s==1?ni:ui,l=r==1?ui:ni,c=o(a(mn(i))),h=l(a(mn(t))),d=qr(e,c),u=qr(e,h);return e==10&&(c<0&&(d=Ne(d,-c)),h<0&&(u=Ne(u,-h))),n||e==2?(i=d*s,t=u*r):(i=um(i,d),t=uc(t,u)),[i,t]}function Lu(i,t,e,n){let s=hc(i,t,e,n);return i==0&&(s[0]=0),t==0&&(s[1]=0),s}var Du=.1,Ip={mode:3,pad:Du},Za={pad:0,soft:null,mode:0},VS={min:Za,max:Za};function oc(i,t,e,n){return dc(e)?Lp(i,t,e):(Za.pad=e,Za.soft=n?0:null,Za.mode=n?3:0,Lp(i,t,VS))}function Se(i,t){return i??t}function GS(i,t,e){for(t=Se(t,0),e=Se(e,i.length-1);t<=e;){if(i[t]!=null)return!0;t++}return!1}function Lp(i,t,e){let n=e.min,s=e.max,r=Se(n.pad,0),a=Se(s.pad,0),o=Se(n.hard,-De),l=Se(s.hard,De),c=Se(n.soft,De),h=Se(s.soft,-De),d=Se(n.mode,0),u=Se(s.mode,0),f=t-i,x=as(f),w=On(mn(i),mn(t)),m=as(w),p=mn(m-x);(f<1e-24||p>10)&&(f=0,(i==0||t==0)&&(f=1e-24,d==2&&c!=De&&(r=0),u==2&&h!=-De&&(a=0)));let M=f||w||1e3,C=as(M),b=qr(10,ni(C)),I=M*(f==0?i==0?.1:1:r),T=Ne(um(i-I,b/10),24),_=i>=c&&(d==1||d==3&&T<=c||d==2&&T>=c)?c:De,E=On(o,T<_&&i>=_?_:Ai(_,T)),z=M*(f==0?t==0?.1:1:a),N=Ne(uc(t+z,b/10),24),L=t<=h&&(u==1||u==3&&N>=h||u==2&&N<=h)?h:-De,G=Ai(l,N>L&&t<=L?L:On(L,N));return E==G&&E==0&&(G=100),[E,G]}var HS=new Intl.NumberFormat(Jr?OS.language:"en-US"),Nu=i=>HS.format(i),ii=Math,rc=ii.PI,mn=ii.abs,ni=ii.floor,pn=ii.round,ui=ii.ceil,Ai=ii.min,On=ii.max,qr=ii.pow,Dp=ii.sign,as=ii.log10,om=ii.log2,WS=(i,t=1)=>ii.sinh(i)*t,mu=(i,t=1)=>ii.asinh(i/t),De=1/0;function Np(i){return(as((i^i>>31)-(i>>31))|0)+1}function bu(i,t,e){return Ai(On(i,t),e)}function lm(i){return typeof i=="function"}function _e(i){return lm(i)?i:()=>i}var XS=()=>{},cm=i=>i,hm=(i,t)=>t,qS=i=>null,Up=i=>!0,Fp=(i,t)=>i==t,$S=/\.\d*?(?=9{6,}|0{6,})/gm,tr=i=>{if(fm(i)||Ls.has(i))return i;let t=`${i}`,e=t.match($S);if(e==null)return i;let n=e[0].length-1;if(t.indexOf("e-")!=-1){let[s,r]=t.split("e");return+`${tr(s)}e${r}`}return Ne(i,n)};function Js(i,t){return tr(Ne(tr(i/t))*t)}function uc(i,t){return tr(ui(tr(i/t))*t)}function um(i,t){return tr(ni(tr(i/t))*t)}function Ne(i,t=0){if(fm(i))return i;let e=10**t,n=i*e*(1+Number.EPSILON);return pn(n)/e}var Ls=new Map;function dm(i){return((""+i).split(".")[1]||"").length}function Ka(i,t,e,n){let s=[],r=n.map(dm);for(let a=t;a<e;a++){let o=mn(a),l=Ne(qr(i,a),o);for(let c=0;c<n.length;c++){let h=i==10?+`${n[c]}e${a}`:n[c]*l,d=(a>=0?0:o)+(a>=r[c]?0:r[c]),u=i==10?h:Ne(h,d);s.push(u),Ls.set(u,d)}}return s}var Ja={},Uu=[],$r=[null,null],Is=Array.isArray,fm=Number.isInteger,YS=i=>i===void 0;function Op(i){return typeof i=="string"}function dc(i){let t=!1;if(i!=null){let e=i.constructor;t=e==null||e==Object}return t}function ZS(i){return i!=null&&typeof i=="object"}var JS=Object.getPrototypeOf(Uint8Array),pm="__proto__";function Yr(i,t=dc){let e;if(Is(i)){let n=i.find(s=>s!=null);if(Is(n)||t(n)){e=Array(i.length);for(let s=0;s<i.length;s++)e[s]=Yr(i[s],t)}else e=i.slice()}else if(i instanceof JS)e=i.slice();else if(t(i)){e={};for(let n in i)n!=pm&&(e[n]=Yr(i[n],t))}else e=i;return e}function ln(i){let t=arguments;for(let e=1;e<t.length;e++){let n=t[e];for(let s in n)s!=pm&&(dc(i[s])?ln(i[s],Yr(n[s])):i[s]=Yr(n[s]))}return i}var KS=0,jS=1,QS=2;function tM(i,t,e){for(let n=0,s,r=-1;n<t.length;n++){let a=t[n];if(a>r){for(s=a-1;s>=0&&i[s]==null;)i[s--]=null;for(s=a+1;s<e&&i[s]==null;)i[r=s++]=null}}}function eM(i,t){if(sM(i)){let a=i[0].slice();for(let o=1;o<i.length;o++)a.push(...i[o].slice(1));return rM(a[0])||(a=iM(a)),a}let e=new Set;for(let a=0;a<i.length;a++){let l=i[a][0],c=l.length;for(let h=0;h<c;h++)e.add(l[h])}let n=[Array.from(e).sort((a,o)=>a-o)],s=n[0].length,r=new Map;for(let a=0;a<s;a++)r.set(n[0][a],a);for(let a=0;a<i.length;a++){let o=i[a],l=o[0];for(let c=1;c<o.length;c++){let h=o[c],d=Array(s).fill(void 0),u=t?t[a][c]:jS,f=[];for(let x=0;x<h.length;x++){let w=h[x],m=r.get(l[x]);w===null?u!=KS&&(d[m]=w,u==QS&&f.push(m)):d[m]=w}tM(d,f,s),n.push(d)}}return n}var nM=typeof queueMicrotask>"u"?i=>Promise.resolve().then(i):queueMicrotask;function iM(i){let t=i[0],e=t.length,n=Array(e);for(let r=0;r<n.length;r++)n[r]=r;n.sort((r,a)=>t[r]-t[a]);let s=[];for(let r=0;r<i.length;r++){let a=i[r],o=Array(e);for(let l=0;l<e;l++)o[l]=a[n[l]];s.push(o)}return s}function sM(i){let t=i[0][0],e=t.length;for(let n=1;n<i.length;n++){let s=i[n][0];if(s.length!=e)return!1;if(s!=t){for(let r=0;r<e;r++)if(s[r]!=t[r])return!1}}return!0}function rM(i,t=100){let e=i.length;if(e<=1)return!0;let n=0,s=e-1;for(;n<=s&&i[n]==null;)n++;for(;s>=n&&i[s]==null;)s--;if(s<=n)return!0;let r=On(1,ni((s-n+1)/t));for(let a=i[n],o=n+r;o<=s;o+=r){let l=i[o];if(l!=null){if(l<=a)return!1;a=l}}return!0}var mm=["January","February","March","April","May","June","July","August","September","October","November","December"],gm=["Sunday","Monday","Tuesday","Wednesday","Thursday","Friday","Saturday"];function _m(i){return i.slice(0,3)}var aM=gm.map(_m),oM=mm.map(_m),lM={MMMM:mm,MMM:oM,WWWW:gm,WWW:aM};function Xa(i){return(i<10?"0":"")+i}function cM(i){return(i<10?"00":i<100?"0":"")+i}var hM={YYYY:i=>i.getFullYear(),YY:i=>(i.getFullYear()+"").slice(2),MMMM:(i,t)=>t.MMMM[i.getMonth()],MMM:(i,t)=>t.MMM[i.getMonth()],MM:i=>Xa(i.getMonth()+1),M:i=>i.getMonth()+1,DD:i=>Xa(i.getDate()),D:i=>i.getDate(),WWWW:(i,t)=>t.WWWW[i.getDay()],WWW:(i,t)=>t.WWW[i.getDay()],HH:i=>Xa(i.getHours()),H:i=>i.getHours(),h:i=>{let t=i.getHours();return t==0?12:t>12?t-12:t},AA:i=>i.getHours()>=12?"PM":"AM",aa:i=>i.getHours()>=12?"pm":"am",a:i=>i.getHours()>=12?"p":"a",mm:i=>Xa(i.getMinutes()),m:i=>i.getMinutes(),ss:i=>Xa(i.getSeconds()),s:i=>i.getSeconds(),fff:i=>cM(i.getMilliseconds())};function Fu(i,t){t=t||lM;let e=[],n=/\{([a-z]+)\}|[^{]+/gi,s;for(;s=n.exec(i);)e.push(s[0][0]=="{"?hM[s[1]]:s[0]);return r=>{let a="";for(let o=0;o<e.length;o++)a+=typeof e[o]=="string"?e[o]:e[o](r,t);return a}}var uM=new Intl.DateTimeFormat().resolvedOptions().timeZone;function dM(i,t){let e;return t=="UTC"||t=="Etc/UTC"?e=new Date(+i+i.getTimezoneOffset()*6e4):t==uM?e=i:(e=new Date(i.toLocaleString("en-US",{timeZone:t})),e.setMilliseconds(i.getMilliseconds())),e}var xm=i=>i%1==0,lc=[1,2,2.5,5],fM=Ka(10,-32,0,lc),ym=Ka(10,0,32,lc),pM=ym.filter(xm),Ks=fM.concat(ym),Ou=`
`,vm="{YYYY}",Bp=Ou+vm,Sm="{M}/{D}",Ya=Ou+Sm,ic=Ya+"/{YY}",Mm="{aa}",mM="{h}:{mm}",Wr=mM+Mm,kp=Ou+Wr,zp=":{ss}",Te=null;function bm(i){let t=i*1e3,e=t*60,n=e*60,s=n*24,r=s*30,a=s*365,l=(i==1?Ka(10,0,3,lc).filter(xm):Ka(10,-3,0,lc)).concat([t,t*5,t*10,t*15,t*30,e,e*5,e*10,e*15,e*30,n,n*2,n*3,n*4,n*6,n*8,n*12,s,s*2,s*3,s*4,s*5,s*6,s*7,s*8,s*9,s*10,s*15,r,r*2,r*3,r*4,r*6,a,a*2,a*5,a*10,a*25,a*50,a*100]),c=[[a,vm,Te,Te,Te,Te,Te,Te,1],[s*28,"{MMM}",Bp,Te,Te,Te,Te,Te,1],[s,Sm,Bp,Te,Te,Te,Te,Te,1],[n,"{h}"+Mm,ic,Te,Ya,Te,Te,Te,1],[e,Wr,ic,Te,Ya,Te,Te,Te,1],[t,zp,ic+" "+Wr,Te,Ya+" "+Wr,Te,kp,Te,1],[i,zp+".{fff}",ic+" "+Wr,Te,Ya+" "+Wr,Te,kp,Te,1]];function h(d){return(u,f,x,w,m,p)=>{let M=[],C=m>=a,b=m>=r&&m<a,I=d(x),T=Ne(I*i,3),_=gu(I.getFullYear(),C?0:I.getMonth(),b||C?1:I.getDate()),E=Ne(_*i,3);if(b||C){let z=b?m/r:0,N=C?m/a:0,L=T==E?T:Ne(gu(_.getFullYear()+N,_.getMonth()+z,1)*i,3),G=new Date(pn(L/i)),H=G.getFullYear(),D=G.getMonth();for(let V=0;L<=w;V++){let Y=gu(H+N*V,D+z*V,1),k=Y-d(Ne(Y*i,3));L=Ne((+Y+k)*i,3),L<=w&&M.push(L)}}else{let z=m>=s?s:m,N=ni(x)-ni(T),L=E+N+uc(T-E,z);M.push(L);let G=d(L),H=G.getHours()+G.getMinutes()/e+G.getSeconds()/n,D=m/n,V=u.axes[f]._space,Y=p/V;for(;L=Ne(L+m,i==1?0:3),!(L>w);)if(D>1){let k=ni(Ne(H+D,6))%24,j=d(L).getHours()-k;j>1&&(j=-1),L-=j*n,H=(H+D)%24;let st=M[M.length-1];Ne((L-st)/m,3)*Y>=.7&&M.push(L)}else M.push(L)}return M}}return[l,c,h]}var[gM,_M,xM]=bm(1),[yM,vM,SM]=bm(.001);Ka(2,-53,53,[1]);function Vp(i,t){return i.map(e=>e.map((n,s)=>s==0||s==8||n==null?n:t(s==1||e[8]==0?n:e[1]+n)))}function Gp(i,t){return(e,n,s,r,a)=>{let o=t.find(x=>a>=x[0])||t[t.length-1],l,c,h,d,u,f;return n.map(x=>{let w=i(x),m=w.getFullYear(),p=w.getMonth(),M=w.getDate(),C=w.getHours(),b=w.getMinutes(),I=w.getSeconds(),T=m!=l&&o[2]||p!=c&&o[3]||M!=h&&o[4]||C!=d&&o[5]||b!=u&&o[6]||I!=f&&o[7]||o[1];return l=m,c=p,h=M,d=C,u=b,f=I,T(w)})}}function MM(i,t){let e=Fu(t);return(n,s,r,a,o)=>s.map(l=>e(i(l)))}function gu(i,t,e){return new Date(i,t,e)}function Hp(i,t){return t(i)}var bM="{YYYY}-{MM}-{DD} {h}:{mm}{aa}";function Wp(i,t){return(e,n,s,r)=>r==null?Pu:t(i(n))}function wM(i,t){let e=i.series[t];return e.width?e.stroke(i,t):e.points.width?e.points.stroke(i,t):null}function EM(i,t){return i.series[t].fill(i,t)}var TM={show:!0,live:!0,isolate:!1,mount:XS,markers:{show:!0,width:2,stroke:wM,fill:EM,dash:"solid"},idx:null,idxs:null,values:[]};function AM(i,t){let e=i.cursor.points,n=hi(),s=e.size(i,t);Ve(n,qa,s),Ve(n,$a,s);let r=s/-2;Ve(n,"marginLeft",r),Ve(n,"marginTop",r);let a=e.width(i,t,s);return a&&Ve(n,"borderWidth",a),n}function RM(i,t){let e=i.series[t].points;return e._fill||e._stroke}function CM(i,t){let e=i.series[t].points;return e._stroke||e._fill}function PM(i,t){return i.series[t].points.size}var _u=[0,0];function IM(i,t,e){return _u[0]=t,_u[1]=e,_u}function sc(i,t,e,n=!0){return s=>{s.button==0&&(!n||s.target==t)&&e(s)}}function xu(i,t,e,n=!0){return s=>{(!n||s.target==t)&&e(s)}}var LM={show:!0,x:!0,y:!0,lock:!1,move:IM,points:{one:!1,show:AM,size:PM,width:0,stroke:CM,fill:RM},bind:{mousedown:sc,mouseup:sc,click:sc,dblclick:sc,mousemove:xu,mouseleave:xu,mouseenter:xu},drag:{setScale:!0,x:!0,y:!1,dist:0,uni:null,click:(i,t)=>{t.stopPropagation(),t.stopImmediatePropagation()},_x:!1,_y:!1},focus:{dist:(i,t,e,n,s)=>n-s,prox:-1,bias:0},hover:{skip:[void 0],prox:null,bias:0},left:-10,top:-10,idx:null,dataIdx:null,idxs:null,event:null},wm={show:!0,stroke:"rgba(0,0,0,0.07)",width:2},Bu=ln({},wm,{filter:hm}),Em=ln({},Bu,{size:10}),Tm=ln({},wm,{show:!1}),ku='12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol", "Noto Color Emoji"',Am="bold "+ku,Rm=1.5,Xp={show:!0,scale:"x",stroke:Cu,space:50,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:Am,side:2,grid:Bu,ticks:Em,border:Tm,font:ku,lineGap:Rm,rotate:0},DM="Value",NM="Time",qp={show:!0,scale:"x",auto:!1,sorted:1,min:De,max:-De,idxs:[]};function UM(i,t,e,n,s){return t.map(r=>r==null?"":Nu(r))}function FM(i,t,e,n,s,r,a){let o=[],l=Ls.get(s)||0;e=a?e:Ne(uc(e,s),l);for(let c=e;c<=n;c=Ne(c+s,l))o.push(Object.is(c,-0)?0:c);return o}function wu(i,t,e,n,s,r,a){let o=[],l=i.scales[i.axes[t].scale].log,c=l==10?as:om,h=ni(c(e));s=qr(l,h),l==10&&(s=Ks[Ti(s,Ks)]);let d=e,u=s*l;l==10&&(u=Ks[Ti(u,Ks)]);do o.push(d),d=d+s,l==10&&!Ls.has(d)&&(d=Ne(d,Ls.get(s))),d>=u&&(s=d,u=s*l,l==10&&(u=Ks[Ti(u,Ks)]));while(d<=n);return o}function OM(i,t,e,n,s,r,a){let l=i.scales[i.axes[t].scale].asinh,c=n>l?wu(i,t,On(l,e),n,s):[l],h=n>=0&&e<=0?[0]:[];return(e<-l?wu(i,t,On(l,-n),-e,s):[l]).reverse().map(u=>-u).concat(h,c)}var Cm=/./,BM=/[12357]/,kM=/[125]/,$p=/1/,Eu=(i,t,e,n)=>i.map((s,r)=>t==4&&s==0||r%n==0&&e.test(s.toExponential()[s<0?1:0])?s:null);function zM(i,t,e,n,s){let r=i.axes[e],a=r.scale,o=i.scales[a],l=i.valToPos,c=r._space,h=l(10,a),d=l(9,a)-h>=c?Cm:l(7,a)-h>=c?BM:l(5,a)-h>=c?kM:$p;if(d==$p){let u=mn(l(1,a)-h);if(u<c)return Eu(t.slice().reverse(),o.distr,d,ui(c/u)).reverse()}return Eu(t,o.distr,d,1)}function VM(i,t,e,n,s){let r=i.axes[e],a=r.scale,o=r._space,l=i.valToPos,c=mn(l(1,a)-l(2,a));return c<o?Eu(t.slice().reverse(),3,Cm,ui(o/c)).reverse():t}function GM(i,t,e,n){return n==null?Pu:t==null?"":Nu(t)}var Yp={show:!0,scale:"y",stroke:Cu,space:30,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:Am,side:3,grid:Bu,ticks:Em,border:Tm,font:ku,lineGap:Rm,rotate:0};function HM(i,t){let e=3+(i||1)*2;return Ne(e*t,3)}function WM(i,t){let{scale:e,idxs:n}=i.series[0],s=i._data[0],r=i.valToPos(s[n[0]],e,!0),a=i.valToPos(s[n[1]],e,!0),o=mn(a-r),l=i.series[t],c=o/(l.points.space*we);return n[1]-n[0]<=c}var Zp={scale:null,auto:!0,sorted:0,min:De,max:-De},Pm=(i,t,e,n,s)=>s,Jp={show:!0,auto:!0,sorted:0,gaps:Pm,alpha:1,facets:[ln({},Zp,{scale:"x"}),ln({},Zp,{scale:"y"})]},Kp={scale:"y",auto:!0,sorted:0,show:!0,spanGaps:!1,gaps:Pm,alpha:1,points:{show:WM,filter:null},values:null,min:De,max:-De,idxs:[],path:null,clip:null};function XM(i,t,e,n,s){return e/10}var Im={time:!0,auto:!0,distr:1,log:10,asinh:1,min:null,max:null,dir:1,ori:0},qM=ln({},Im,{time:!1,ori:1}),jp={};function Lm(i,t){let e=jp[i];return e||(e={key:i,plots:[],sub(n){e.plots.push(n)},unsub(n){e.plots=e.plots.filter(s=>s!=n)},pub(n,s,r,a,o,l,c){for(let h=0;h<e.plots.length;h++)e.plots[h]!=s&&e.plots[h].pub(n,s,r,a,o,l,c)}},i!=null&&(jp[i]=e)),e}var Zr=1,Tu=2;function er(i,t,e){let n=i.mode,s=i.series[t],r=n==2?i._data[t]:i._data,a=i.scales,o=i.bbox,l=r[0],c=n==2?r[1]:r[t],h=n==2?a[s.facets[0].scale]:a[i.series[0].scale],d=n==2?a[s.facets[1].scale]:a[s.scale],u=o.left,f=o.top,x=o.width,w=o.height,m=i.valToPosH,p=i.valToPosV;return h.ori==0?e(s,l,c,h,d,m,p,u,f,x,w,pc,Kr,gc,Nm,Fm):e(s,l,c,h,d,p,m,f,u,w,x,mc,jr,Gu,Um,Om)}function zu(i,t){let e=0,n=0,s=Se(i.bands,Uu);for(let r=0;r<s.length;r++){let a=s[r];a.series[0]==t?e=a.dir:a.series[1]==t&&(a.dir==1?n|=1:n|=2)}return[e,n==1?-1:n==2?1:n==3?2:0]}function $M(i,t,e,n,s){let r=i.mode,a=i.series[t],o=r==2?a.facets[1].scale:a.scale,l=i.scales[o];return s==-1?l.min:s==1?l.max:l.distr==3?l.dir==1?l.min:l.max:0}function os(i,t,e,n,s,r){return er(i,t,(a,o,l,c,h,d,u,f,x,w,m)=>{let p=a.pxRound,M=c.dir*(c.ori==0?1:-1),C=c.ori==0?Kr:jr,b,I;M==1?(b=e,I=n):(b=n,I=e);let T=p(d(o[b],c,w,f)),_=p(u(l[b],h,m,x)),E=p(d(o[I],c,w,f)),z=p(u(r==1?h.max:h.min,h,m,x)),N=new Path2D(s);return C(N,E,z),C(N,T,z),C(N,T,_),N})}function fc(i,t,e,n,s,r){let a=null;if(i.length>0){a=new Path2D;let o=t==0?gc:Gu,l=e;for(let d=0;d<i.length;d++){let u=i[d];if(u[1]>u[0]){let f=u[0]-l;f>0&&o(a,l,n,f,n+r),l=u[1]}}let c=e+s-l,h=10;c>0&&o(a,l,n-h/2,c,n+r+h)}return a}function YM(i,t,e){let n=i[i.length-1];n&&n[0]==t?n[1]=e:i.push([t,e])}function Vu(i,t,e,n,s,r,a){let o=[],l=i.length;for(let c=s==1?e:n;c>=e&&c<=n;c+=s)if(t[c]===null){let d=c,u=c;if(s==1)for(;++c<=n&&t[c]===null;)u=c;else for(;--c>=e&&t[c]===null;)u=c;let f=r(i[d]),x=u==d?f:r(i[u]),w=d-s;f=a<=0&&w>=0&&w<l?r(i[w]):f;let p=u+s;x=a>=0&&p>=0&&p<l?r(i[p]):x,x>=f&&o.push([f,x])}return o}function Qp(i){return i==0?cm:i==1?pn:t=>Js(t,i)}function Dm(i){let t=i==0?pc:mc,e=i==0?(s,r,a,o,l,c)=>{s.arcTo(r,a,o,l,c)}:(s,r,a,o,l,c)=>{s.arcTo(a,r,l,o,c)},n=i==0?(s,r,a,o,l)=>{s.rect(r,a,o,l)}:(s,r,a,o,l)=>{s.rect(a,r,l,o)};return(s,r,a,o,l,c=0,h=0)=>{c==0&&h==0?n(s,r,a,o,l):(c=Ai(c,o/2,l/2),h=Ai(h,o/2,l/2),t(s,r+c,a),e(s,r+o,a,r+o,a+l,c),e(s,r+o,a+l,r,a+l,h),e(s,r,a+l,r,a,h),e(s,r,a,r+o,a,c),s.closePath())}}var pc=(i,t,e)=>{i.moveTo(t,e)},mc=(i,t,e)=>{i.moveTo(e,t)},Kr=(i,t,e)=>{i.lineTo(t,e)},jr=(i,t,e)=>{i.lineTo(e,t)},gc=Dm(0),Gu=Dm(1),Nm=(i,t,e,n,s,r)=>{i.arc(t,e,n,s,r)},Um=(i,t,e,n,s,r)=>{i.arc(e,t,n,s,r)},Fm=(i,t,e,n,s,r,a)=>{i.bezierCurveTo(t,e,n,s,r,a)},Om=(i,t,e,n,s,r,a)=>{i.bezierCurveTo(e,t,s,n,a,r)};function Bm(i){return(t,e,n,s,r)=>er(t,e,(a,o,l,c,h,d,u,f,x,w,m)=>{let{pxRound:p,points:M}=a,C,b;c.ori==0?(C=pc,b=Nm):(C=mc,b=Um);let I=Ne(M.width*we,3),T=(M.size-M.width)/2*we,_=Ne(T*2,3),E=new Path2D,z=new Path2D,{left:N,top:L,width:G,height:H}=t.bbox;gc(z,N-_,L-_,G+_*2,H+_*2);let D=V=>{if(l[V]!=null){let Y=p(d(o[V],c,w,f)),k=p(u(l[V],h,m,x));C(E,Y+T,k),b(E,Y,k,T,0,rc*2)}};if(r)r.forEach(D);else for(let V=n;V<=s;V++)D(V);return{stroke:I>0?E:null,fill:E,clip:z,flags:Zr|Tu}})}function km(i){return(t,e,n,s,r,a)=>{n!=s&&(r!=n&&a!=n&&i(t,e,n),r!=s&&a!=s&&i(t,e,s),i(t,e,a))}}var ZM=km(Kr),JM=km(jr);function zm(i){let t=Se(i?.alignGaps,0);return(e,n,s,r)=>er(e,n,(a,o,l,c,h,d,u,f,x,w,m)=>{[s,r]=cc(l,s,r);let p=a.pxRound,M=H=>p(d(H,c,w,f)),C=H=>p(u(H,h,m,x)),b,I;c.ori==0?(b=Kr,I=ZM):(b=jr,I=JM);let T=c.dir*(c.ori==0?1:-1),_={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:Zr},E=_.stroke,z=!1;if(r-s>=w*4){let H=ut=>e.posToVal(ut,c.key,!0),D=null,V=null,Y,k,ct,Z=M(o[T==1?s:r]),j=M(o[s]),st=M(o[r]),dt=H(T==1?j+1:st-1);for(let ut=T==1?s:r;ut>=s&&ut<=r;ut+=T){let Q=o[ut],xt=(T==1?Q<dt:Q>dt)?Z:M(Q),At=l[ut];xt==Z?At!=null?(k=At,D==null?(b(E,xt,C(k)),Y=D=V=k):k<D?D=k:k>V&&(V=k)):At===null&&(z=!0):(D!=null&&I(E,Z,C(D),C(V),C(Y),C(k)),At!=null?(k=At,b(E,xt,C(k)),D=V=Y=k):(D=V=null,At===null&&(z=!0)),Z=xt,dt=H(Z+T))}D!=null&&D!=V&&ct!=Z&&I(E,Z,C(D),C(V),C(Y),C(k))}else for(let H=T==1?s:r;H>=s&&H<=r;H+=T){let D=l[H];D===null?z=!0:D!=null&&b(E,M(o[H]),C(D))}let[L,G]=zu(e,n);if(a.fill!=null||L!=0){let H=_.fill=new Path2D(E),D=a.fillTo(e,n,a.min,a.max,L),V=C(D),Y=M(o[s]),k=M(o[r]);T==-1&&([k,Y]=[Y,k]),b(H,k,V),b(H,Y,V)}if(!a.spanGaps){let H=[];z&&H.push(...Vu(o,l,s,r,T,M,t)),_.gaps=H=a.gaps(e,n,s,r,H),_.clip=fc(H,c.ori,f,x,w,m)}return G!=0&&(_.band=G==2?[os(e,n,s,r,E,-1),os(e,n,s,r,E,1)]:os(e,n,s,r,E,G)),_})}function KM(i){let t=Se(i.align,1),e=Se(i.ascDesc,!1),n=Se(i.alignGaps,0),s=Se(i.extend,!1);return(r,a,o,l)=>er(r,a,(c,h,d,u,f,x,w,m,p,M,C)=>{[o,l]=cc(d,o,l);let b=c.pxRound,{left:I,width:T}=r.bbox,_=j=>b(x(j,u,M,m)),E=j=>b(w(j,f,C,p)),z=u.ori==0?Kr:jr,N={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:Zr},L=N.stroke,G=u.dir*(u.ori==0?1:-1),H=E(d[G==1?o:l]),D=_(h[G==1?o:l]),V=D,Y=D;s&&t==-1&&(Y=I,z(L,Y,H)),z(L,D,H);for(let j=G==1?o:l;j>=o&&j<=l;j+=G){let st=d[j];if(st==null)continue;let dt=_(h[j]),ut=E(st);t==1?z(L,dt,H):z(L,V,ut),z(L,dt,ut),H=ut,V=dt}let k=V;s&&t==1&&(k=I+T,z(L,k,H));let[ct,Z]=zu(r,a);if(c.fill!=null||ct!=0){let j=N.fill=new Path2D(L),st=c.fillTo(r,a,c.min,c.max,ct),dt=E(st);z(j,k,dt),z(j,Y,dt)}if(!c.spanGaps){let j=[];j.push(...Vu(h,d,o,l,G,_,n));let st=c.width*we/2,dt=e||t==1?st:-st,ut=e||t==-1?-st:st;j.forEach(Q=>{Q[0]+=dt,Q[1]+=ut}),N.gaps=j=c.gaps(r,a,o,l,j),N.clip=fc(j,u.ori,m,p,M,C)}return Z!=0&&(N.band=Z==2?[os(r,a,o,l,L,-1),os(r,a,o,l,L,1)]:os(r,a,o,l,L,Z)),N})}function tm(i,t,e,n,s,r,a=De){if(i.length>1){let o=null;for(let l=0,c=1/0;l<i.length;l++)if(t[l]!==void 0){if(o!=null){let h=mn(i[l]-i[o]);h<c&&(c=h,a=mn(e(i[l],n,s,r)-e(i[o],n,s,r)))}o=l}}return a}function jM(i){i=i||Ja;let t=Se(i.size,[.6,De,1]),e=i.align||0,n=i.gap||0,s=i.radius;s=s==null?[0,0]:typeof s=="number"?[s,0]:s;let r=_e(s),a=1-t[0],o=Se(t[1],De),l=Se(t[2],1),c=Se(i.disp,Ja),h=Se(i.each,f=>{}),{fill:d,stroke:u}=c;return(f,x,w,m)=>er(f,x,(p,M,C,b,I,T,_,E,z,N,L)=>{let G=p.pxRound,H=e,D=n*we,V=o*we,Y=l*we,k,ct;b.ori==0?[k,ct]=r(f,x):[ct,k]=r(f,x);let Z=b.dir*(b.ori==0?1:-1),j=b.ori==0?gc:Gu,st=b.ori==0?h:(Ct,qt,se,bt,Le,zt,Xt)=>{h(Ct,qt,se,Le,bt,Xt,zt)},dt=Se(f.bands,Uu).find(Ct=>Ct.series[0]==x),ut=dt!=null?dt.dir:0,Q=p.fillTo(f,x,p.min,p.max,ut),mt=G(_(Q,I,L,z)),xt,At,Mt,Ht=N,ie=G(p.width*we),Vt=!1,he=null,oe=null,te=null,Ge=null;d!=null&&(ie==0||u!=null)&&(Vt=!0,he=d.values(f,x,w,m),oe=new Map,new Set(he).forEach(Ct=>{Ct!=null&&oe.set(Ct,new Path2D)}),ie>0&&(te=u.values(f,x,w,m),Ge=new Map,new Set(te).forEach(Ct=>{Ct!=null&&Ge.set(Ct,new Path2D)})));let{x0:Ue,size:tn}=c;if(Ue!=null&&tn!=null){H=1,M=Ue.values(f,x,w,m),Ue.unit==2&&(M=M.map(se=>f.posToVal(E+se*N,b.key,!0)));let Ct=tn.values(f,x,w,m);tn.unit==2?At=Ct[0]*N:At=T(Ct[0],b,N,E)-T(0,b,N,E),Ht=tm(M,C,T,b,N,E,Ht),Mt=Ht-At+D}else Ht=tm(M,C,T,b,N,E,Ht),Mt=Ht*a+D,At=Ht-Mt;Mt<1&&(Mt=0),ie>=At/2&&(ie=0),Mt<5&&(G=cm);let Pe=Mt>0,_n=Ht-Mt-(Pe?ie:0);At=G(bu(_n,Y,V)),xt=(H==0?At/2:H==Z?0:At)-H*Z*((H==0?D/2:0)+(Pe?ie/2:0));let xe={stroke:null,fill:null,clip:null,band:null,gaps:null,flags:0},cn=Vt?null:new Path2D,$e=null;if(dt!=null)$e=f.data[dt.series[1]];else{let{y0:Ct,y1:qt}=c;Ct!=null&&qt!=null&&(C=qt.values(f,x,w,m),$e=Ct.values(f,x,w,m))}let en=k*At,F=ct*At;for(let Ct=Z==1?w:m;Ct>=w&&Ct<=m;Ct+=Z){let qt=C[Ct];if(qt==null)continue;if($e!=null){let W=$e[Ct]??0;if(qt-W==0)continue;mt=_(W,I,L,z)}let se=b.distr!=2||c!=null?M[Ct]:Ct,bt=T(se,b,N,E),Le=_(Se(qt,Q),I,L,z),zt=G(bt-xt),Xt=G(On(Le,mt)),A=G(Ai(Le,mt)),y=Xt-A;if(qt!=null){let W=qt<0?F:en,ht=qt<0?en:F;Vt?(ie>0&&te[Ct]!=null&&j(Ge.get(te[Ct]),zt,A+ni(ie/2),At,On(0,y-ie),W,ht),he[Ct]!=null&&j(oe.get(he[Ct]),zt,A+ni(ie/2),At,On(0,y-ie),W,ht)):j(cn,zt,A+ni(ie/2),At,On(0,y-ie),W,ht),st(f,x,Ct,zt-ie/2,A,At+ie,y)}}return ie>0?xe.stroke=Vt?Ge:cn:Vt||(xe._fill=p.width==0?p._fill:p._stroke??p._fill,xe.width=0),xe.fill=Vt?oe:cn,xe})}function QM(i,t){let e=Se(t?.alignGaps,0);return(n,s,r,a)=>er(n,s,(o,l,c,h,d,u,f,x,w,m,p)=>{[r,a]=cc(c,r,a);let M=o.pxRound,C=k=>M(u(k,h,m,x)),b=k=>M(f(k,d,p,w)),I,T,_;h.ori==0?(I=pc,_=Kr,T=Fm):(I=mc,_=jr,T=Om);let E=h.dir*(h.ori==0?1:-1),z=C(l[E==1?r:a]),N=z,L=[],G=[];for(let k=E==1?r:a;k>=r&&k<=a;k+=E)if(c[k]!=null){let Z=l[k],j=C(Z);L.push(N=j),G.push(b(c[k]))}let H={stroke:i(L,G,I,_,T,M),fill:null,clip:null,band:null,gaps:null,flags:Zr},D=H.stroke,[V,Y]=zu(n,s);if(o.fill!=null||V!=0){let k=H.fill=new Path2D(D),ct=o.fillTo(n,s,o.min,o.max,V),Z=b(ct);_(k,N,Z),_(k,z,Z)}if(!o.spanGaps){let k=[];k.push(...Vu(l,c,r,a,E,C,e)),H.gaps=k=o.gaps(n,s,r,a,k),H.clip=fc(k,h.ori,x,w,m,p)}return Y!=0&&(H.band=Y==2?[os(n,s,r,a,D,-1),os(n,s,r,a,D,1)]:os(n,s,r,a,D,Y)),H})}function tb(i){return QM(eb,i)}function eb(i,t,e,n,s,r){let a=i.length;if(a<2)return null;let o=new Path2D;if(e(o,i[0],t[0]),a==2)n(o,i[1],t[1]);else{let l=Array(a),c=Array(a-1),h=Array(a-1),d=Array(a-1);for(let u=0;u<a-1;u++)h[u]=t[u+1]-t[u],d[u]=i[u+1]-i[u],c[u]=h[u]/d[u];l[0]=c[0];for(let u=1;u<a-1;u++)c[u]===0||c[u-1]===0||c[u-1]>0!=c[u]>0?l[u]=0:(l[u]=3*(d[u-1]+d[u])/((2*d[u]+d[u-1])/c[u-1]+(d[u]+2*d[u-1])/c[u]),isFinite(l[u])||(l[u]=0));l[a-1]=c[a-2];for(let u=0;u<a-1;u++)s(o,i[u]+d[u]/3,t[u]+l[u]*d[u]/3,i[u+1]-d[u]/3,t[u+1]-l[u+1]*d[u]/3,i[u+1],t[u+1])}return o}var Au=new Set;function em(){for(let i of Au)i.syncRect(!0)}Jr&&(Qs(US,Xr,em),Qs(FS,Xr,em,!0),Qs(ac,Xr,()=>{gn.pxRatio=we}));var nb=zm(),ib=Bm();function nm(i,t,e,n){return(n?[i[0],i[1]].concat(i.slice(2)):[i[0]].concat(i.slice(1))).map((r,a)=>Ru(r,a,t,e))}function sb(i,t){return i.map((e,n)=>n==0?{}:ln({},t,e))}function Ru(i,t,e,n){return ln({},t==0?e:n,i)}function Vm(i,t,e){return t==null?$r:[t,e]}var rb=Vm;function ab(i,t,e){return t==null?$r:oc(t,e,Du,!0)}function Gm(i,t,e,n){return t==null?$r:hc(t,e,i.scales[n].log,!1)}var ob=Gm;function Hm(i,t,e,n){return t==null?$r:Lu(t,e,i.scales[n].log,!1)}var lb=Hm;function cb(i,t,e,n,s){let r=On(Np(i),Np(t)),a=t-i,o=Ti(s/n*a,e);do{let l=e[o],c=n*l/a;if(c>=s&&r+(l<5?Ls.get(l):0)<=17)return[l,c]}while(++o<e.length);return[0,0]}function im(i){let t,e;return i=i.replace(/(\d+)px/,(n,s)=>(t=pn((e=+s)*we))+"px"),[i,t,e]}function hb(i){i.show&&[i.font,i.labelFont].forEach(t=>{let e=Ne(t[2]*we,1);t[0]=t[0].replace(/[0-9.]+px/,e+"px"),t[1]=e})}function gn(i,t,e){let n={mode:Se(i.mode,1)},s=n.mode;function r(g,v,R,P){let B=v.valToPct(g);return P+R*(v.dir==-1?1-B:B)}function a(g,v,R,P){let B=v.valToPct(g);return P+R*(v.dir==-1?B:1-B)}function o(g,v,R,P){return v.ori==0?r(g,v,R,P):a(g,v,R,P)}n.valToPosH=r,n.valToPosV=a;let l=!1;n.status=0;let c=n.root=hi(_S);if(i.id!=null&&(c.id=i.id),ei(c,i.class),i.title){let g=hi(vS,c);g.textContent=i.title}let h=Ei("canvas"),d=n.ctx=h.getContext("2d"),u=hi(SS,c);Qs("click",u,g=>{g.target===x&&(Oe!=lr||He!=cr)&&wn.click(n,g)},!0);let f=n.under=hi(MS,u);u.appendChild(h);let x=n.over=hi(bS,u);i=Yr(i);let w=+Se(i.pxAlign,1),m=Qp(w);(i.plugins||[]).forEach(g=>{g.opts&&(i=g.opts(n,i)||i)});let p=i.ms||.001,M=n.series=s==1?nm(i.series||[],qp,Kp,!1):sb(i.series||[null],Jp),C=n.axes=nm(i.axes||[],Xp,Yp,!0),b=n.scales={},I=n.bands=i.bands||[];I.forEach(g=>{g.fill=_e(g.fill||null),g.dir=Se(g.dir,-1)});let T=s==2?M[1].facets[0].scale:M[0].scale,_={axes:$i,series:de},E=(i.drawOrder||["axes","series"]).map(g=>_[g]);function z(g){let v=g.distr==3?R=>as(R>0?R:g.clamp(n,R,g.min,g.max,g.key)):g.distr==4?R=>mu(R,g.asinh):g.distr==100?R=>g.fwd(R):R=>R;return R=>{let P=v(R),{_min:B,_max:$}=g,ot=$-B;return(P-B)/ot}}function N(g){let v=b[g];if(v==null){let R=(i.scales||Ja)[g]||Ja;if(R.from!=null){N(R.from);let P=ln({},b[R.from],R,{key:g});P.valToPct=z(P),b[g]=P}else{v=b[g]=ln({},g==T?Im:qM,R),v.key=g;let P=v.time,B=v.range,$=Is(B);if((g!=T||s==2&&!P)&&($&&(B[0]==null||B[1]==null)&&(B={min:B[0]==null?Ip:{mode:1,hard:B[0],soft:B[0]},max:B[1]==null?Ip:{mode:1,hard:B[1],soft:B[1]}},$=!1),!$&&dc(B))){let ot=B;B=(ft,vt,Dt)=>vt==null?$r:oc(vt,Dt,ot)}v.range=_e(B||(P?rb:g==T?v.distr==3?ob:v.distr==4?lb:Vm:v.distr==3?Gm:v.distr==4?Hm:ab)),v.auto=_e($?!1:v.auto),v.clamp=_e(v.clamp||XM),v._min=v._max=null,v.valToPct=z(v)}}}N("x"),N("y"),s==1&&M.forEach(g=>{N(g.scale)}),C.forEach(g=>{N(g.scale)});for(let g in i.scales)N(g);let L=b[T],G=L.distr,H,D;L.ori==0?(ei(c,xS),H=r,D=a):(ei(c,yS),H=a,D=r);let V={};for(let g in b){let v=b[g];(v.min!=null||v.max!=null)&&(V[g]={min:v.min,max:v.max},v.min=v.max=null)}let Y=i.tzDate||(g=>new Date(pn(g/p))),k=i.fmtDate||Fu,ct=p==1?xM(Y):SM(Y),Z=Gp(Y,Vp(p==1?_M:vM,k)),j=Wp(Y,Hp(bM,k)),st=[],dt=n.legend=ln({},TM,i.legend),ut=n.cursor=ln({},LM,{drag:{y:s==2}},i.cursor),Q=dt.show,mt=ut.show,xt=dt.markers;dt.idxs=st,xt.width=_e(xt.width),xt.dash=_e(xt.dash),xt.stroke=_e(xt.stroke),xt.fill=_e(xt.fill);let At,Mt,Ht,ie=[],Vt=[],he,oe=!1,te={};if(dt.live){let g=M[1]?M[1].values:null;oe=g!=null,he=oe?g(n,1,0):{_:0};for(let v in he)te[v]=Pu}if(Q)if(At=Ei("table",CS,c),Ht=Ei("tbody",null,At),dt.mount(n,At),oe){Mt=Ei("thead",null,At,Ht);let g=Ei("tr",null,Mt);Ei("th",null,g);for(var Ge in he)Ei("th",xp,g).textContent=Ge}else ei(At,IS),dt.live&&ei(At,PS);let Ue={show:!0},tn={show:!1};function Pe(g,v){if(v==0&&(oe||!dt.live||s==2))return $r;let R=[],P=Ei("tr",LS,Ht,Ht.childNodes[v]);ei(P,g.class),g.show||ei(P,js);let B=Ei("th",null,P);if(xt.show){let ft=hi(DS,B);if(v>0){let vt=xt.width(n,v);vt&&(ft.style.border=vt+"px "+xt.dash(n,v)+" "+xt.stroke(n,v)),ft.style.background=xt.fill(n,v)}}let $=hi(xp,B);g.label instanceof HTMLElement?$.appendChild(g.label):$.textContent=g.label,v>0&&(xt.show||($.style.color=g.width>0?xt.stroke(n,v):xt.fill(n,v)),xe("click",B,ft=>{if(ut._lock)return;Zt(ft);let vt=M.indexOf(g);if((ft.ctrlKey||ft.metaKey)!=dt.isolate){let Dt=M.some((Nt,Ft)=>Ft>0&&Ft!=vt&&Nt.show);M.forEach((Nt,Ft)=>{Ft>0&&Ii(Ft,Dt?Ft==vt?Ue:tn:Ue,!0,an.setSeries)})}else Ii(vt,{show:!g.show},!0,an.setSeries)},!1),Jt&&xe(Mp,B,ft=>{ut._lock||(Zt(ft),Ii(M.indexOf(g),ur,!0,an.setSeries))},!1));for(var ot in he){let ft=Ei("td",NS,P);ft.textContent="--",R.push(ft)}return[P,R]}let _n=new Map;function xe(g,v,R,P=!0){let B=_n.get(v)||{},$=ut.bind[g](n,v,R,P);$&&(Qs(g,v,B[g]=$),_n.set(v,B))}function cn(g,v,R){let P=_n.get(v)||{};for(let B in P)(g==null||B==g)&&(Mu(B,v,P[B]),delete P[B]);g==null&&_n.delete(v)}let $e=0,en=0,F=0,Ct=0,qt=0,se=0,bt=qt,Le=se,zt=F,Xt=Ct,A=0,y=0,W=0,ht=0;n.bbox={};let at=!1,_t=!1,yt=!1,et=!1,it=!1,pt=!1;function U(g,v,R){(R||g!=n.width||v!=n.height)&&rt(g,v),le(!1),yt=!0,_t=!0,En()}function rt(g,v){n.width=$e=F=g,n.height=en=Ct=v,qt=se=0,St(),Gt();let R=n.bbox;A=R.left=Js(qt*we,.5),y=R.top=Js(se*we,.5),W=R.width=Js(F*we,.5),ht=R.height=Js(Ct*we,.5)}let nt=3;function wt(){let g=!1,v=0;for(;!g;){v++;let R=rr(v),P=Pi(v);g=v==nt||R&&P,g||(rt(n.width,n.height),_t=!0)}}function gt({width:g,height:v}){U(g,v)}n.setSize=gt;function St(){let g=!1,v=!1,R=!1,P=!1;C.forEach((B,$)=>{if(B.show&&B._show){let{side:ot,_size:ft}=B,vt=ot%2,Dt=B.label!=null?B.labelSize:0,Nt=ft+Dt;Nt>0&&(vt?(F-=Nt,ot==3?(qt+=Nt,P=!0):R=!0):(Ct-=Nt,ot==0?(se+=Nt,g=!0):v=!0))}}),Ri[0]=g,Ri[1]=R,Ri[2]=v,Ri[3]=P,F-=fi[1]+fi[3],qt+=fi[3],Ct-=fi[2]+fi[0],se+=fi[0]}function Gt(){let g=qt+F,v=se+Ct,R=qt,P=se;function B($,ot){switch($){case 1:return g+=ot,g-ot;case 2:return v+=ot,v-ot;case 3:return R-=ot,R+ot;case 0:return P-=ot,P+ot}}C.forEach(($,ot)=>{if($.show&&$._show){let ft=$.side;$._pos=B(ft,$._size),$.label!=null&&($._lpos=B(ft,$.labelSize))}})}if(ut.dataIdx==null){let g=ut.hover,v=g.skip=new Set(g.skip??[]);v.add(void 0);let R=g.prox=_e(g.prox),P=g.bias??(g.bias=0);ut.dataIdx=(B,$,ot,ft)=>{if($==0)return ot;let vt=ot,Dt=R(B,$,ot,ft)??De,Nt=Dt>=0&&Dt<De,Ft=L.ori==0?F:Ct,ee=ut.left,Me=t[0],ve=t[$];if(v.has(ve[ot])){vt=null;let pe=null,Yt=null,Wt;if(P==0||P==-1)for(Wt=ot;pe==null&&Wt-- >0;)v.has(ve[Wt])||(pe=Wt);if(P==0||P==1)for(Wt=ot;Yt==null&&Wt++<ve.length;)v.has(ve[Wt])||(Yt=Wt);if(pe!=null||Yt!=null)if(Nt){let ke=pe==null?-1/0:H(Me[pe],L,Ft,0),Je=Yt==null?1/0:H(Me[Yt],L,Ft,0),Sn=ee-ke,Ie=Je-ee;Sn<=Ie?Sn<=Dt&&(vt=pe):Ie<=Dt&&(vt=Yt)}else vt=Yt==null?pe:pe==null?Yt:ot-pe<=Yt-ot?pe:Yt}else Nt&&mn(ee-H(Me[ot],L,Ft,0))>Dt&&(vt=null);return vt}}let Zt=g=>{ut.event=g};ut.idxs=st,ut._lock=!1;let lt=ut.points;lt.show=_e(lt.show),lt.size=_e(lt.size),lt.stroke=_e(lt.stroke),lt.width=_e(lt.width),lt.fill=_e(lt.fill);let Ot=n.focus=ln({},i.focus||{alpha:.3},ut.focus),Jt=Ot.prox>=0,Rt=Jt&&lt.one,ae=[],Fe=[],Cn=[];function ta(g,v){let R=lt.show(n,v);if(R instanceof HTMLElement)return ei(R,RS),ei(R,g.class),Hi(R,-10,-10,F,Ct),x.insertBefore(R,ae[v]),R}function nr(g,v){if(s==1||v>0){let R=s==1&&b[g.scale].time,P=g.value;g.value=R?Op(P)?Wp(Y,Hp(P,k)):P||j:P||GM,g.label=g.label||(R?NM:DM)}if(Rt||v>0){g.width=g.width==null?1:g.width,g.paths=g.paths||nb||qS,g.fillTo=_e(g.fillTo||$M),g.pxAlign=+Se(g.pxAlign,w),g.pxRound=Qp(g.pxAlign),g.stroke=_e(g.stroke||null),g.fill=_e(g.fill||null),g._stroke=g._fill=g._paths=g._focus=null;let R=HM(On(1,g.width),1),P=g.points=ln({},{size:R,width:On(1,R*.2),stroke:g.stroke,space:R*2,paths:ib,_stroke:null,_fill:null},g.points);P.show=_e(P.show),P.filter=_e(P.filter),P.fill=_e(P.fill),P.stroke=_e(P.stroke),P.paths=_e(P.paths),P.pxAlign=g.pxAlign}if(Q){let R=Pe(g,v);ie.splice(v,0,R[0]),Vt.splice(v,0,R[1]),dt.values.push(null)}if(mt){st.splice(v,0,null);let R=null;Rt?v==0&&(R=ta(g,v)):v>0&&(R=ta(g,v)),ae.splice(v,0,R),Fe.splice(v,0,0),Cn.splice(v,0,0)}vn("addSeries",v)}function wc(g,v){v=v??M.length,g=s==1?Ru(g,v,qp,Kp):Ru(g,v,{},Jp),M.splice(v,0,g),nr(M[v],v)}n.addSeries=wc;function ja(g){if(M.splice(g,1),Q){dt.values.splice(g,1),Vt.splice(g,1);let v=ie.splice(g,1)[0];cn(null,v.firstChild),v.remove()}mt&&(st.splice(g,1),ae.splice(g,1)[0].remove(),Fe.splice(g,1),Cn.splice(g,1)),vn("delSeries",g)}n.delSeries=ja;let Ri=[!1,!1,!1,!1];function Wi(g,v){if(g._show=g.show,g.show){let R=g.side%2,P=b[g.scale];P==null&&(g.scale=R?M[1].scale:T,P=b[g.scale]);let B=P.time;g.size=_e(g.size),g.space=_e(g.space),g.rotate=_e(g.rotate),Is(g.incrs)&&g.incrs.forEach(ot=>{!Ls.has(ot)&&Ls.set(ot,dm(ot))}),g.incrs=_e(g.incrs||(P.distr==2?pM:B?p==1?gM:yM:Ks)),g.splits=_e(g.splits||(B&&P.distr==1?ct:P.distr==3?wu:P.distr==4?OM:FM)),g.stroke=_e(g.stroke),g.grid.stroke=_e(g.grid.stroke),g.ticks.stroke=_e(g.ticks.stroke),g.border.stroke=_e(g.border.stroke);let $=g.values;g.values=Is($)&&!Is($[0])?_e($):B?Is($)?Gp(Y,Vp($,k)):Op($)?MM(Y,$):$||Z:$||UM,g.filter=_e(g.filter||(P.distr>=3&&P.log==10?zM:P.distr==3&&P.log==2?VM:hm)),g.font=im(g.font),g.labelFont=im(g.labelFont),g._size=g.size(n,null,v,0),g._space=g._rotate=g._incrs=g._found=g._splits=g._values=null,g._size>0&&(Ri[v]=!0,g._el=hi(wS,u))}}function Xi(g,v,R,P){let[B,$,ot,ft]=R,vt=v%2,Dt=0;return vt==0&&(ft||$)&&(Dt=v==0&&!B||v==2&&!ot?pn(Xp.size/3):0),vt==1&&(B||ot)&&(Dt=v==1&&!$||v==3&&!ft?pn(Yp.size/2):0),Dt}let ea=n.padding=(i.padding||[Xi,Xi,Xi,Xi]).map(g=>_e(Se(g,Xi))),fi=n._padding=ea.map((g,v)=>g(n,v,Ri,0)),Ye,je=null,Qe=null,Ci=s==1?M[0].idxs:null,Vn=null,cs=!1;function na(g,v){if(t=g??[],n.data=n._data=t,s==2){Ye=0;for(let R=1;R<M.length;R++)Ye+=t[R][0].length}else{t.length==0&&(n.data=n._data=t=[[]]),Vn=t[0],Ye=Vn.length;let R=t;if(G==2){R=t.slice();let P=R[0]=Array(Ye);for(let B=0;B<Ye;B++)P[B]=B}n._data=t=R}if(le(!0),vn("setData"),G==2&&(yt=!0),v!==!1){let R=L;R.auto(n,cs)?ia():ds(T,R.min,R.max),et=et||ut.left>=0,pt=!0,En()}}n.setData=na;function ia(){cs=!0;let g,v;s==1&&(Ye>0?(je=Ci[0]=0,Qe=Ci[1]=Ye-1,g=t[0][je],v=t[0][Qe],G==2?(g=je,v=Qe):g==v&&(G==3?[g,v]=hc(g,g,L.log,!1):G==4?[g,v]=Lu(g,g,L.log,!1):L.time?v=g+pn(86400/p):[g,v]=oc(g,v,Du,!0))):(je=Ci[0]=g=null,Qe=Ci[1]=v=null)),ds(T,g,v)}let ir,hs,sr,S,O,K,X,q,Et,Pt;function Tt(g,v,R,P,B,$){g??(g=vp),R??(R=Uu),P??(P="butt"),B??(B=vp),$??($="round"),g!=ir&&(d.strokeStyle=ir=g),B!=hs&&(d.fillStyle=hs=B),v!=sr&&(d.lineWidth=sr=v),$!=O&&(d.lineJoin=O=$),P!=K&&(d.lineCap=K=P),R!=S&&d.setLineDash(S=R)}function It(g,v,R,P){v!=hs&&(d.fillStyle=hs=v),g!=X&&(d.font=X=g),R!=q&&(d.textAlign=q=R),P!=Et&&(d.textBaseline=Et=P)}function kt(g,v,R,P,B=0){if(P.length>0&&g.auto(n,cs)&&(v==null||v.min==null)){let $=Se(je,0),ot=Se(Qe,P.length-1),ft=R.min==null?zS(P,$,ot,B,g.distr==3):[R.min,R.max];g.min=Ai(g.min,R.min=ft[0]),g.max=On(g.max,R.max=ft[1])}}let Kt={min:null,max:null};function ue(){for(let P in b){let B=b[P];V[P]==null&&(B.min==null||V[T]!=null&&B.auto(n,cs))&&(V[P]=Kt)}for(let P in b){let B=b[P];V[P]==null&&B.from!=null&&V[B.from]!=null&&(V[P]=Kt)}V[T]!=null&&le(!0);let g={};for(let P in V){let B=V[P];if(B!=null){let $=g[P]=Yr(b[P],ZS);if(B.min!=null)ln($,B);else if(P!=T||s==2)if(Ye==0&&$.from==null){let ot=$.range(n,null,null,P);$.min=ot[0],$.max=ot[1]}else $.min=De,$.max=-De}}if(Ye>0){M.forEach((P,B)=>{if(s==1){let $=P.scale,ot=V[$];if(ot==null)return;let ft=g[$];if(B==0){let vt=ft.range(n,ft.min,ft.max,$);ft.min=vt[0],ft.max=vt[1],je=Ti(ft.min,t[0]),Qe=Ti(ft.max,t[0]),Qe-je>1&&(t[0][je]<ft.min&&je++,t[0][Qe]>ft.max&&Qe--),P.min=Vn[je],P.max=Vn[Qe]}else P.show&&P.auto&&kt(ft,ot,P,t[B],P.sorted);P.idxs[0]=je,P.idxs[1]=Qe}else if(B>0&&P.show&&P.auto){let[$,ot]=P.facets,ft=$.scale,vt=ot.scale,[Dt,Nt]=t[B],Ft=g[ft],ee=g[vt];Ft!=null&&kt(Ft,V[ft],$,Dt,$.sorted),ee!=null&&kt(ee,V[vt],ot,Nt,ot.sorted),P.min=ot.min,P.max=ot.max}});for(let P in g){let B=g[P],$=V[P];if(B.from==null&&($==null||$.min==null)){let ot=B.range(n,B.min==De?null:B.min,B.max==-De?null:B.max,P);B.min=ot[0],B.max=ot[1]}}}for(let P in g){let B=g[P];if(B.from!=null){let $=g[B.from];if($.min==null)B.min=B.max=null;else{let ot=B.range(n,$.min,$.max,P);B.min=ot[0],B.max=ot[1]}}}let v={},R=!1;for(let P in g){let B=g[P],$=b[P];if($.min!=B.min||$.max!=B.max){$.min=B.min,$.max=B.max;let ot=$.distr;$._min=ot==3?as($.min):ot==4?mu($.min,$.asinh):ot==100?$.fwd($.min):$.min,$._max=ot==3?as($.max):ot==4?mu($.max,$.asinh):ot==100?$.fwd($.max):$.max,v[P]=R=!0}}if(R){M.forEach((P,B)=>{s==2?B>0&&v.y&&(P._paths=null):v[P.scale]&&(P._paths=null)});for(let P in v)yt=!0,vn("setScale",P);mt&&ut.left>=0&&(et=pt=!0)}for(let P in V)V[P]=null}function Bt(g){let v=bu(je-1,0,Ye-1),R=bu(Qe+1,0,Ye-1);for(;g[v]==null&&v>0;)v--;for(;g[R]==null&&R<Ye-1;)R++;return[v,R]}function de(){if(Ye>0){let g=M.some(v=>v._focus)&&Pt!=Ot.alpha;g&&(d.globalAlpha=Pt=Ot.alpha),M.forEach((v,R)=>{if(R>0&&v.show&&(We(R,!1),We(R,!0),v._paths==null)){let P=Pt;Pt!=v.alpha&&(d.globalAlpha=Pt=v.alpha);let B=s==2?[0,t[R][0].length-1]:Bt(t[R]);v._paths=v.paths(n,R,B[0],B[1]),Pt!=P&&(d.globalAlpha=Pt=P)}}),M.forEach((v,R)=>{if(R>0&&v.show){let P=Pt;Pt!=v.alpha&&(d.globalAlpha=Pt=v.alpha),v._paths!=null&&Ae(R,!1);{let B=v._paths!=null?v._paths.gaps:null,$=v.points.show(n,R,je,Qe,B),ot=v.points.filter(n,R,$,B);($||ot)&&(v.points._paths=v.points.paths(n,R,je,Qe,ot),Ae(R,!0))}Pt!=P&&(d.globalAlpha=Pt=P),vn("drawSeries",R)}}),g&&(d.globalAlpha=Pt=1)}}function We(g,v){let R=v?M[g].points:M[g];R._stroke=R.stroke(n,g),R._fill=R.fill(n,g)}function Ae(g,v){let R=v?M[g].points:M[g],{stroke:P,fill:B,clip:$,flags:ot,_stroke:ft=R._stroke,_fill:vt=R._fill,_width:Dt=R.width}=R._paths;Dt=Ne(Dt*we,3);let Nt=null,Ft=Dt%2/2;v&&vt==null&&(vt=Dt>0?"#fff":ft);let ee=R.pxAlign==1&&Ft>0;if(ee&&d.translate(Ft,Ft),!v){let Me=A-Dt/2,ve=y-Dt/2,pe=W+Dt,Yt=ht+Dt;Nt=new Path2D,Nt.rect(Me,ve,pe,Yt)}v?Ut(ft,Dt,R.dash,R.cap,vt,P,B,ot,$):Re(g,ft,Dt,R.dash,R.cap,vt,P,B,ot,Nt,$),ee&&d.translate(-Ft,-Ft)}function Re(g,v,R,P,B,$,ot,ft,vt,Dt,Nt){let Ft=!1;vt!=0&&I.forEach((ee,Me)=>{if(ee.series[0]==g){let ve=M[ee.series[1]],pe=t[ee.series[1]],Yt=(ve._paths||Ja).band;Is(Yt)&&(Yt=ee.dir==1?Yt[0]:Yt[1]);let Wt,ke=null;ve.show&&Yt&&GS(pe,je,Qe)?(ke=ee.fill(n,Me)||$,Wt=ve._paths.clip):Yt=null,Ut(v,R,P,B,ke,ot,ft,vt,Dt,Nt,Wt,Yt),Ft=!0}}),Ft||Ut(v,R,P,B,$,ot,ft,vt,Dt,Nt)}let hn=Zr|Tu;function Ut(g,v,R,P,B,$,ot,ft,vt,Dt,Nt,Ft){Tt(g,v,R,P,B),(vt||Dt||Ft)&&(d.save(),vt&&d.clip(vt),Dt&&d.clip(Dt)),Ft?(ft&hn)==hn?(d.clip(Ft),Nt&&d.clip(Nt),me(B,ot),nn(g,$,v)):ft&Tu?(me(B,ot),d.clip(Ft),nn(g,$,v)):ft&Zr&&(d.save(),d.clip(Ft),Nt&&d.clip(Nt),me(B,ot),d.restore(),nn(g,$,v)):(me(B,ot),nn(g,$,v)),(vt||Dt||Ft)&&d.restore()}function nn(g,v,R){R>0&&(v instanceof Map?v.forEach((P,B)=>{d.strokeStyle=ir=B,d.stroke(P)}):v!=null&&g&&d.stroke(v))}function me(g,v){v instanceof Map?v.forEach((R,P)=>{d.fillStyle=hs=P,d.fill(R)}):v!=null&&g&&d.fill(v)}function qi(g,v,R,P){let B=C[g],$;if(P<=0)$=[0,0];else{let ot=B._space=B.space(n,g,v,R,P),ft=B._incrs=B.incrs(n,g,v,R,P,ot);$=cb(v,R,ft,P,ot)}return B._found=$}function sn(g,v,R,P,B,$,ot,ft,vt,Dt){let Nt=ot%2/2;w==1&&d.translate(Nt,Nt),Tt(ft,ot,vt,Dt,ft),d.beginPath();let Ft,ee,Me,ve,pe=B+(P==0||P==3?-$:$);R==0?(ee=B,ve=pe):(Ft=B,Me=pe);for(let Yt=0;Yt<g.length;Yt++)v[Yt]!=null&&(R==0?Ft=Me=g[Yt]:ee=ve=g[Yt],d.moveTo(Ft,ee),d.lineTo(Me,ve));d.stroke(),w==1&&d.translate(-Nt,-Nt)}function rr(g){let v=!0;return C.forEach((R,P)=>{if(!R.show)return;let B=b[R.scale];if(B.min==null){R._show&&(v=!1,R._show=!1,le(!1));return}else R._show||(v=!1,R._show=!0,le(!1));let $=R.side,ot=$%2,{min:ft,max:vt}=B,[Dt,Nt]=qi(P,ft,vt,ot==0?F:Ct);if(Nt==0)return;let Ft=B.distr==2,ee=R._splits=R.splits(n,P,ft,vt,Dt,Nt,Ft),Me=B.distr==2?ee.map(Wt=>Vn[Wt]):ee,ve=B.distr==2?Vn[ee[1]]-Vn[ee[0]]:Dt,pe=R._values=R.values(n,R.filter(n,Me,P,Nt,ve),P,Nt,ve);R._rotate=$==2?R.rotate(n,pe,P,Nt):0;let Yt=R._size;R._size=ui(R.size(n,pe,P,g)),Yt!=null&&R._size!=Yt&&(v=!1)}),v}function Pi(g){let v=!0;return ea.forEach((R,P)=>{let B=R(n,P,Ri,g);B!=fi[P]&&(v=!1),fi[P]=B}),v}function $i(){for(let g=0;g<C.length;g++){let v=C[g];if(!v.show||!v._show)continue;let R=v.side,P=R%2,B,$,ot=v.stroke(n,g),ft=R==0||R==3?-1:1,[vt,Dt]=v._found;if(v.label!=null){let Ln=v.labelGap*ft,Wn=pn((v._lpos+Ln)*we);It(v.labelFont[0],ot,"center",R==2?"top":yp),d.save(),P==1?(B=$=0,d.translate(Wn,pn(y+ht/2)),d.rotate((R==3?-rc:rc)/2)):(B=pn(A+W/2),$=Wn);let Us=lm(v.label)?v.label(n,g,vt,Dt):v.label;d.fillText(Us,B,$),d.restore()}if(Dt==0)continue;let Nt=b[v.scale],Ft=P==0?W:ht,ee=P==0?A:y,Me=v._splits,ve=Nt.distr==2?Me.map(Ln=>Vn[Ln]):Me,pe=Nt.distr==2?Vn[Me[1]]-Vn[Me[0]]:vt,Yt=v.ticks,Wt=v.border,ke=Yt.show?Yt.size:0,Je=pn(ke*we),Sn=pn((v.alignTo==2?v._size-ke-v.gap:v.gap)*we),Ie=v._rotate*-rc/180,Ke=m(v._pos*we),Gn=(Je+Sn)*ft,In=Ke+Gn;$=P==0?In:0,B=P==1?In:0;let si=v.font[0],pi=v.align==1?Hr:v.align==2?du:Ie>0?Hr:Ie<0?du:P==0?"center":R==3?du:Hr,Di=Ie||P==1?"middle":R==2?"top":yp;It(si,ot,pi,Di);let Hn=v.font[1]*v.lineGap,ri=Me.map(Ln=>m(o(Ln,Nt,Ft,ee))),mi=v._values;for(let Ln=0;Ln<mi.length;Ln++){let Wn=mi[Ln];if(Wn!=null){P==0?B=ri[Ln]:$=ri[Ln],Wn=""+Wn;let Us=Wn.indexOf(`
`)==-1?[Wn]:Wn.split(/\n/gm);for(let Dn=0;Dn<Us.length;Dn++){let vd=Us[Dn];Ie?(d.save(),d.translate(B,$+Dn*Hn),d.rotate(Ie),d.fillText(vd,0,0),d.restore()):d.fillText(vd,B,$+Dn*Hn)}}}Yt.show&&sn(ri,Yt.filter(n,ve,g,Dt,pe),P,R,Ke,Je,Ne(Yt.width*we,3),Yt.stroke(n,g),Yt.dash,Yt.cap);let Ni=v.grid;Ni.show&&sn(ri,Ni.filter(n,ve,g,Dt,pe),P,P==0?2:1,P==0?y:A,P==0?ht:W,Ne(Ni.width*we,3),Ni.stroke(n,g),Ni.dash,Ni.cap),Wt.show&&sn([Ke],[1],P==0?1:0,P==0?1:2,P==1?y:A,P==1?ht:W,Ne(Wt.width*we,3),Wt.stroke(n,g),Wt.dash,Wt.cap)}vn("drawAxes")}function le(g){M.forEach((v,R)=>{R>0&&(v._paths=null,g&&(s==1?(v.min=null,v.max=null):v.facets.forEach(P=>{P.min=null,P.max=null})))})}let Ze=!1,Pn=!1,Ce=[];function rn(){Pn=!1;for(let g=0;g<Ce.length;g++)vn(...Ce[g]);Ce.length=0}function En(){Ze||(nM(nd),Ze=!0)}function Qa(g,v=!1){Ze=!0,Pn=v,g(n),nd(),v&&Ce.length>0&&queueMicrotask(rn)}n.batch=Qa;function nd(){if(at&&(ue(),at=!1),yt&&(wt(),yt=!1),_t){if(Ve(f,Hr,qt),Ve(f,"top",se),Ve(f,qa,F),Ve(f,$a,Ct),Ve(x,Hr,qt),Ve(x,"top",se),Ve(x,qa,F),Ve(x,$a,Ct),Ve(u,qa,$e),Ve(u,$a,en),h.width=pn($e*we),h.height=pn(en*we),C.forEach(({_el:g,_show:v,_size:R,_pos:P,side:B})=>{if(g!=null)if(v){let $=B===3||B===0?R:0,ot=B%2==1;Ve(g,ot?"left":"top",P-$),Ve(g,ot?"width":"height",R),Ve(g,ot?"top":"left",ot?se:qt),Ve(g,ot?"height":"width",ot?Ct:F),Su(g,js)}else ei(g,js)}),ir=hs=sr=O=K=X=q=Et=S=null,Pt=1,aa(!0),qt!=bt||se!=Le||F!=zt||Ct!=Xt){le(!1);let g=F/zt,v=Ct/Xt;if(mt&&!et&&ut.left>=0){ut.left*=g,ut.top*=v,ar&&Hi(ar,pn(ut.left),0,F,Ct),or&&Hi(or,0,pn(ut.top),F,Ct);for(let R=0;R<ae.length;R++){let P=ae[R];P!=null&&(Fe[R]*=g,Cn[R]*=v,Hi(P,ui(Fe[R]),ui(Cn[R]),F,Ct))}}if(Be.show&&!it&&Be.left>=0&&Be.width>0){Be.left*=g,Be.width*=g,Be.top*=v,Be.height*=v;for(let R in Pc)Ve(hr,R,Be[R])}bt=qt,Le=se,zt=F,Xt=Ct}vn("setSize"),_t=!1}$e>0&&en>0&&(d.clearRect(0,0,h.width,h.height),vn("drawClear"),E.forEach(g=>g()),vn("draw")),Be.show&&it&&(to(Be),it=!1),mt&&et&&(Ns(null,!0,!1),et=!1),dt.show&&dt.live&&pt&&(Rc(),pt=!1),l||(l=!0,n.status=1,vn("ready")),cs=!1,Ze=!1}n.redraw=(g,v)=>{yt=v||!1,g!==!1?ds(T,L.min,L.max):En()};function Ec(g,v){let R=b[g];if(R.from==null){if(Ye==0){let P=R.range(n,v.min,v.max,g);v.min=P[0],v.max=P[1]}if(v.min>v.max){let P=v.min;v.min=v.max,v.max=P}if(Ye>1&&v.min!=null&&v.max!=null&&v.max-v.min<1e-16)return;g==T&&R.distr==2&&Ye>0&&(v.min=Ti(v.min,t[0]),v.max=Ti(v.max,t[0]),v.min==v.max&&v.max++),V[g]=v,at=!0,En()}}n.setScale=Ec;let Tc,Ac,ar,or,id,sd,lr,cr,rd,ad,Oe,He,us=!1,wn=ut.drag,xn=wn.x,yn=wn.y;mt&&(ut.x&&(Tc=hi(TS,x)),ut.y&&(Ac=hi(AS,x)),L.ori==0?(ar=Tc,or=Ac):(ar=Ac,or=Tc),Oe=ut.left,He=ut.top);let Be=n.select=ln({show:!0,over:!0,left:0,width:0,top:0,height:0},i.select),hr=Be.show?hi(ES,Be.over?x:f):null;function to(g,v){if(Be.show){for(let R in g)Be[R]=g[R],R in Pc&&Ve(hr,R,g[R]);v!==!1&&vn("setSelect")}}n.setSelect=to;function rg(g){if(M[g].show)Q&&Su(ie[g],js);else if(Q&&ei(ie[g],js),mt){let R=Rt?ae[0]:ae[g];R!=null&&Hi(R,-10,-10,F,Ct)}}function ds(g,v,R){Ec(g,{min:v,max:R})}function Ii(g,v,R,P){v.focus!=null&&hg(g),v.show!=null&&M.forEach((B,$)=>{$>0&&(g==$||g==null)&&(B.show=v.show,rg($),s==2?(ds(B.facets[0].scale,null,null),ds(B.facets[1].scale,null,null)):ds(B.scale,null,null),En())}),R!==!1&&vn("setSeries",g,v),P&&oa("setSeries",n,g,v)}n.setSeries=Ii;function ag(g,v){ln(I[g],v)}function og(g,v){g.fill=_e(g.fill||null),g.dir=Se(g.dir,-1),v=v??I.length,I.splice(v,0,g)}function lg(g){g==null?I.length=0:I.splice(g,1)}n.addBand=og,n.setBand=ag,n.delBand=lg;function cg(g,v){M[g].alpha=v,mt&&ae[g]!=null&&(ae[g].style.opacity=v),Q&&ie[g]&&(ie[g].style.opacity=v)}let Yi,fs,Ds,ur={focus:!0};function hg(g){if(g!=Ds){let v=g==null,R=Ot.alpha!=1;M.forEach((P,B)=>{if(s==1||B>0){let $=v||B==0||B==g;P._focus=v?null:$,R&&cg(B,$?1:Ot.alpha)}}),Ds=g,R&&En()}}Q&&Jt&&xe(bp,At,g=>{ut._lock||(Zt(g),Ds!=null&&Ii(null,ur,!0,an.setSeries))});function Li(g,v,R){let P=b[v];R&&(g=g/we-(P.ori==1?se:qt));let B=F;P.ori==1&&(B=Ct,g=B-g),P.dir==-1&&(g=B-g);let $=P._min,ot=P._max,ft=g/B,vt=$+(ot-$)*ft,Dt=P.distr;return Dt==3?qr(10,vt):Dt==4?WS(vt,P.asinh):Dt==100?P.bwd(vt):vt}function ug(g,v){let R=Li(g,T,v);return Ti(R,t[0],je,Qe)}n.valToIdx=g=>Ti(g,t[0]),n.posToIdx=ug,n.posToVal=Li,n.valToPos=(g,v,R)=>b[v].ori==0?r(g,b[v],R?W:F,R?A:0):a(g,b[v],R?ht:Ct,R?y:0),n.setCursor=(g,v,R)=>{Oe=g.left,He=g.top,Ns(null,v,R)};function od(g,v){Ve(hr,Hr,Be.left=g),Ve(hr,qa,Be.width=v)}function ld(g,v){Ve(hr,"top",Be.top=g),Ve(hr,$a,Be.height=v)}let sa=L.ori==0?od:ld,ra=L.ori==1?od:ld;function dg(){if(Q&&dt.live)for(let g=s==2?1:0;g<M.length;g++){if(g==0&&oe)continue;let v=dt.values[g],R=0;for(let P in v)Vt[g][R++].firstChild.nodeValue=v[P]}}function Rc(g,v){if(g!=null&&(g.idxs?g.idxs.forEach((R,P)=>{st[P]=R}):YS(g.idx)||st.fill(g.idx),dt.idx=st[0]),Q&&dt.live){for(let R=0;R<M.length;R++)(R>0||s==1&&!oe)&&fg(R,st[R]);dg()}pt=!1,v!==!1&&vn("setLegend")}n.setLegend=Rc;function fg(g,v){let R=M[g],P=g==0&&G==2?Vn:t[g],B;oe?B=R.values(n,g,v)??te:(B=R.value(n,v==null?null:P[v],g,v),B=B==null?te:{_:B}),dt.values[g]=B}function Ns(g,v,R){rd=Oe,ad=He,[Oe,He]=ut.move(n,Oe,He),ut.left=Oe,ut.top=He,mt&&(ar&&Hi(ar,pn(Oe),0,F,Ct),or&&Hi(or,0,pn(He),F,Ct));let P,B=je>Qe;Yi=De,fs=null;let $=L.ori==0?F:Ct,ot=L.ori==1?F:Ct;if(Oe<0||Ye==0||B){P=ut.idx=null;for(let ft=0;ft<M.length;ft++){let vt=ae[ft];vt!=null&&Hi(vt,-10,-10,F,Ct)}Jt&&Ii(null,ur,!0,g==null&&an.setSeries),dt.live&&(st.fill(P),pt=!0)}else{let ft,vt,Dt;s==1&&(ft=L.ori==0?Oe:He,vt=Li(ft,T),P=ut.idx=Ti(vt,t[0],je,Qe),Dt=H(t[0][P],L,$,0));let Nt=-10,Ft=-10,ee=0,Me=0,ve=!0,pe="",Yt="";for(let Wt=s==2?1:0;Wt<M.length;Wt++){let ke=M[Wt],Je=st[Wt],Sn=Je==null?null:s==1?t[Wt][Je]:t[Wt][1][Je],Ie=ut.dataIdx(n,Wt,P,vt),Ke=Ie==null?null:s==1?t[Wt][Ie]:t[Wt][1][Ie];if(pt=pt||Ke!=Sn||Ie!=Je,st[Wt]=Ie,Wt>0&&ke.show){let Gn=Ie==null?-10:Ie==P?Dt:H(s==1?t[0][Ie]:t[Wt][0][Ie],L,$,0),In=Ke==null?-10:D(Ke,s==1?b[ke.scale]:b[ke.facets[1].scale],ot,0);if(Jt&&Ke!=null){let si=L.ori==1?Oe:He,pi=mn(Ot.dist(n,Wt,Ie,In,si));if(pi<Yi){let Di=Ot.bias;if(Di!=0){let Hn=Li(si,ke.scale),ri=Ke>=0?1:-1,mi=Hn>=0?1:-1;mi==ri&&(mi==1?Di==1?Ke>=Hn:Ke<=Hn:Di==1?Ke<=Hn:Ke>=Hn)&&(Yi=pi,fs=Wt)}else Yi=pi,fs=Wt}}if(pt||Rt){let si,pi;L.ori==0?(si=Gn,pi=In):(si=In,pi=Gn);let Di,Hn,ri,mi,Ni,Ln,Wn=!0,Us=lt.bbox;if(Us!=null){Wn=!1;let Dn=Us(n,Wt);ri=Dn.left,mi=Dn.top,Di=Dn.width,Hn=Dn.height}else ri=si,mi=pi,Di=Hn=lt.size(n,Wt);if(Ln=lt.fill(n,Wt),Ni=lt.stroke(n,Wt),Rt)Wt==fs&&Yi<=Ot.prox&&(Nt=ri,Ft=mi,ee=Di,Me=Hn,ve=Wn,pe=Ln,Yt=Ni);else{let Dn=ae[Wt];Dn!=null&&(Fe[Wt]=ri,Cn[Wt]=mi,Pp(Dn,Di,Hn,Wn),Rp(Dn,Ln,Ni),Hi(Dn,ui(ri),ui(mi),F,Ct))}}}}if(Rt){let Wt=Ot.prox,ke=Ds==null?Yi<=Wt:Yi>Wt||fs!=Ds;if(pt||ke){let Je=ae[0];Je!=null&&(Fe[0]=Nt,Cn[0]=Ft,Pp(Je,ee,Me,ve),Rp(Je,pe,Yt),Hi(Je,ui(Nt),ui(Ft),F,Ct))}}}if(Be.show&&us)if(g!=null){let[ft,vt]=an.scales,[Dt,Nt]=an.match,[Ft,ee]=g.cursor.sync.scales,Me=g.cursor.drag;if(xn=Me._x,yn=Me._y,xn||yn){let{left:ve,top:pe,width:Yt,height:Wt}=g.select,ke=g.scales[Ft].ori,Je=g.posToVal,Sn,Ie,Ke,Gn,In,si=ft!=null&&Dt(ft,Ft),pi=vt!=null&&Nt(vt,ee);si&&xn?(ke==0?(Sn=ve,Ie=Yt):(Sn=pe,Ie=Wt),Ke=b[ft],Gn=H(Je(Sn,Ft),Ke,$,0),In=H(Je(Sn+Ie,Ft),Ke,$,0),sa(Ai(Gn,In),mn(In-Gn))):sa(0,$),pi&&yn?(ke==1?(Sn=ve,Ie=Yt):(Sn=pe,Ie=Wt),Ke=b[vt],Gn=D(Je(Sn,ee),Ke,ot,0),In=D(Je(Sn+Ie,ee),Ke,ot,0),ra(Ai(Gn,In),mn(In-Gn))):ra(0,ot)}else Ic()}else{let ft=mn(rd-id),vt=mn(ad-sd);if(L.ori==1){let ee=ft;ft=vt,vt=ee}xn=wn.x&&ft>=wn.dist,yn=wn.y&&vt>=wn.dist;let Dt=wn.uni;Dt!=null?xn&&yn&&(xn=ft>=Dt,yn=vt>=Dt,!xn&&!yn&&(vt>ft?yn=!0:xn=!0)):wn.x&&wn.y&&(xn||yn)&&(xn=yn=!0);let Nt,Ft;xn&&(L.ori==0?(Nt=lr,Ft=Oe):(Nt=cr,Ft=He),sa(Ai(Nt,Ft),mn(Ft-Nt)),yn||ra(0,ot)),yn&&(L.ori==1?(Nt=lr,Ft=Oe):(Nt=cr,Ft=He),ra(Ai(Nt,Ft),mn(Ft-Nt)),xn||sa(0,$)),!xn&&!yn&&(sa(0,0),ra(0,0))}if(wn._x=xn,wn._y=yn,g==null){if(R){if(yd!=null){let[ft,vt]=an.scales;an.values[0]=ft!=null?Li(L.ori==0?Oe:He,ft):null,an.values[1]=vt!=null?Li(L.ori==1?Oe:He,vt):null}oa(fu,n,Oe,He,F,Ct,P)}if(Jt){let ft=R&&an.setSeries,vt=Ot.prox;Ds==null?Yi<=vt&&Ii(fs,ur,!0,ft):Yi>vt?Ii(null,ur,!0,ft):fs!=Ds&&Ii(fs,ur,!0,ft)}}pt&&(dt.idx=P,Rc()),v!==!1&&vn("setCursor")}let ps=null;Object.defineProperty(n,"rect",{get(){return ps==null&&aa(!1),ps}});function aa(g=!1){g?ps=null:(ps=x.getBoundingClientRect(),vn("syncRect",ps))}function cd(g,v,R,P,B,$,ot){ut._lock||us&&g!=null&&g.movementX==0&&g.movementY==0||(Cc(g,v,R,P,B,$,ot,!1,g!=null),g!=null?Ns(null,!0,!0):Ns(v,!0,!1))}function Cc(g,v,R,P,B,$,ot,ft,vt){if(ps==null&&aa(!1),Zt(g),g!=null)R=g.clientX-ps.left,P=g.clientY-ps.top;else{if(R<0||P<0){Oe=-10,He=-10;return}let[Dt,Nt]=an.scales,Ft=v.cursor.sync,[ee,Me]=Ft.values,[ve,pe]=Ft.scales,[Yt,Wt]=an.match,ke=v.axes[0].side%2==1,Je=L.ori==0?F:Ct,Sn=L.ori==1?F:Ct,Ie=ke?$:B,Ke=ke?B:$,Gn=ke?P:R,In=ke?R:P;if(ve!=null?R=Yt(Dt,ve)?o(ee,b[Dt],Je,0):-10:R=Je*(Gn/Ie),pe!=null?P=Wt(Nt,pe)?o(Me,b[Nt],Sn,0):-10:P=Sn*(In/Ke),L.ori==1){let si=R;R=P,P=si}}vt&&(v==null||v.cursor.event.type==fu)&&((R<=1||R>=F-1)&&(R=Js(R,F)),(P<=1||P>=Ct-1)&&(P=Js(P,Ct))),ft?(id=R,sd=P,[lr,cr]=ut.move(n,R,P)):(Oe=R,He=P)}let Pc={width:0,height:0,left:0,top:0};function Ic(){to(Pc,!1)}let hd,ud,dd,fd;function pd(g,v,R,P,B,$,ot){us=!0,xn=yn=wn._x=wn._y=!1,Cc(g,v,R,P,B,$,ot,!0,!1),g!=null&&(xe(pu,yu,md,!1),oa(Sp,n,lr,cr,F,Ct,null));let{left:ft,top:vt,width:Dt,height:Nt}=Be;hd=ft,ud=vt,dd=Dt,fd=Nt}function md(g,v,R,P,B,$,ot){us=wn._x=wn._y=!1,Cc(g,v,R,P,B,$,ot,!1,!0);let{left:ft,top:vt,width:Dt,height:Nt}=Be,Ft=Dt>0||Nt>0,ee=hd!=ft||ud!=vt||dd!=Dt||fd!=Nt;if(Ft&&ee&&to(Be),wn.setScale&&Ft&&ee){let Me=ft,ve=Dt,pe=vt,Yt=Nt;if(L.ori==1&&(Me=vt,ve=Nt,pe=ft,Yt=Dt),xn&&ds(T,Li(Me,T),Li(Me+ve,T)),yn)for(let Wt in b){let ke=b[Wt];Wt!=T&&ke.from==null&&ke.min!=De&&ds(Wt,Li(pe+Yt,Wt),Li(pe,Wt))}Ic()}else ut.lock&&(ut._lock=!ut._lock,Ns(v,!0,g!=null));g!=null&&(cn(pu,yu),oa(pu,n,Oe,He,F,Ct,null))}function pg(g,v,R,P,B,$,ot){if(ut._lock)return;Zt(g);let ft=us;if(us){let vt=!0,Dt=!0,Nt=10,Ft,ee;L.ori==0?(Ft=xn,ee=yn):(Ft=yn,ee=xn),Ft&&ee&&(vt=Oe<=Nt||Oe>=F-Nt,Dt=He<=Nt||He>=Ct-Nt),Ft&&vt&&(Oe=Oe<lr?0:F),ee&&Dt&&(He=He<cr?0:Ct),Ns(null,!0,!0),us=!1}Oe=-10,He=-10,st.fill(null),Ns(null,!0,!0),ft&&(us=ft)}function gd(g,v,R,P,B,$,ot){ut._lock||(Zt(g),ia(),Ic(),g!=null&&oa(wp,n,Oe,He,F,Ct,null))}function _d(){C.forEach(hb),U(n.width,n.height,!0)}Qs(ac,Xr,_d);let dr={};dr.mousedown=pd,dr.mousemove=cd,dr.mouseup=md,dr.dblclick=gd,dr.setSeries=(g,v,R,P)=>{let B=an.match[2];R=B(n,v,R),R!=-1&&Ii(R,P,!0,!1)},mt&&(xe(Sp,x,pd),xe(fu,x,cd),xe(Mp,x,g=>{Zt(g),aa(!1)}),xe(bp,x,pg),xe(wp,x,gd),Au.add(n),n.syncRect=aa);let eo=n.hooks=i.hooks||{};function vn(g,v,R){Pn?Ce.push([g,v,R]):g in eo&&eo[g].forEach(P=>{P.call(null,n,v,R)})}(i.plugins||[]).forEach(g=>{for(let v in g.hooks)eo[v]=(eo[v]||[]).concat(g.hooks[v])});let xd=(g,v,R)=>R,an=ln({key:null,setSeries:!1,filters:{pub:Up,sub:Up},scales:[T,M[1]?M[1].scale:null],match:[Fp,Fp,xd],values:[null,null]},ut.sync);an.match.length==2&&an.match.push(xd),ut.sync=an;let yd=an.key,Lc=Lm(yd);function oa(g,v,R,P,B,$,ot){an.filters.pub(g,v,R,P,B,$,ot)&&Lc.pub(g,v,R,P,B,$,ot)}Lc.sub(n);function mg(g,v,R,P,B,$,ot){an.filters.sub(g,v,R,P,B,$,ot)&&dr[g](null,v,R,P,B,$,ot)}n.pub=mg;function gg(){Lc.unsub(n),Au.delete(n),_n.clear(),Mu(ac,Xr,_d),c.remove(),At?.remove(),vn("destroy")}n.destroy=gg;function Dc(){vn("init",i,t),na(t||i.data,!1),V[T]?Ec(T,V[T]):ia(),it=Be.show&&(Be.width>0||Be.height>0),et=pt=!0,U(i.width,i.height)}return M.forEach(nr),C.forEach(Wi),e?e instanceof HTMLElement?(e.appendChild(c),Dc()):e(n,Dc):Dc(),n}gn.assign=ln;gn.fmtNum=Nu;gn.rangeNum=oc;gn.rangeLog=hc;gn.rangeAsinh=Lu;gn.orient=er;gn.pxRatio=we;gn.join=eM;gn.fmtDate=Fu,gn.tzDate=dM;gn.sync=Lm;{gn.addGap=YM,gn.clipGaps=fc;let i=gn.paths={points:Bm};i.linear=zm,i.stepped=KM,i.bars=jM,i.spline=tb}var Wm=["fx","fy","ppx","ppy","model","coeffs"],_c=200;function Hu(i){return zn(["",""],Object.entries(i||{}).map(([t,e])=>[t,String(e)]),{class:"kv"})}function xc(i,t,...e){return tt("section",{id:i,class:"panel"},tt("h2",{},t),...e)}function yc(i,t){let e=i.summary.realsense;if(!e)return xc("device","Device",tt("p",{},`Not a RealSense recording: ${i.summary.not_realsense}`));let n=e.sensors.map((s,r)=>{let a=i.options.filter(c=>c.sensor===r),l=[...new Set([...Object.keys(s.options),...a.map(c=>c.name)])].sort().map(c=>{let h=a.filter(u=>u.name===c).map(u=>tt("a",{href:"#",class:"seek",onclick:f=>{f.preventDefault(),t.seek(u.t)}},`${ne(u.t,3)} s \u2192 ${ne(u.value)}`)),d=c in s.options?ne(s.options[c]):"";return[c,d,h.length?tt("span",{class:"changes"},h):""]});return tt("div",{class:"sensor"},tt("h3",{},s.name),Hu(s.info),zn(i.live?["option","value at start",""]:["option","recorded","changes during the recording"],l,{class:"options"}))});return xc("device","Device",Hu(e.device),...e.notes.map(s=>tt("p",{class:"note"},s)),...n)}function Xm(i){let t=(i.summary.realsense||{streams:[]}).streams,e=i.streams.map(l=>{let c=t.find(d=>d.stream===l.name&&d.index===l.index)||{},h=l.width?`${l.width}\xD7${l.height}`:"-";return[l.key,c.sensor||"",l.format,h,l.fps,l.frames.t.length,c.measured_fps?ne(c.measured_fps,2):"-",l.depth_units?`${ne(l.depth_units*1e3,4)} mm`:""]}),n=t.filter(l=>l.intrinsics).map(l=>[`${l.stream} ${l.index}`,...Wm.map(c=>Array.isArray(l.intrinsics[c])?l.intrinsics[c].map(h=>ne(h)).join(", "):ne(l.intrinsics[c]))]),s=tt("div",{id:"extrinsics"}),r=i.streams.map(l=>l.key).filter(l=>i.extrinsics.some(c=>c.to===l)),a=tt("select",{id:"extrinsics-to"},r.map(l=>tt("option",{value:l},l))),o=()=>{let l=i.extrinsics.filter(c=>c.to===a.value).map(c=>[c.from,c.rotation.map(h=>ne(h,6)).join(", "),c.translation.map(h=>ne(h,6)).join(", ")]);s.replaceChildren(zn(["from","rotation (column-major)","translation (m)"],l))};return a.addEventListener("change",o),o(),xc("streams","Streams",zn(["stream","sensor","format","size","fps","frames","measured fps","depth unit"],e,{id:"stream-table"}),tt("h3",{},"Intrinsics"),n.length?zn(["stream",...Wm],n):tt("p",{},"none recorded"),tt("h3",{},"Extrinsics to ",r.length?a:"another stream"),r.length?s:tt("p",{},"none recorded"))}function qm(i){let t=i.summary,e=i.check,n=[...e.damage,...i.read_errors];if(t.scan){for(let l of t.scan.damaged_chunks)n.push(`chunk at byte ${l.offset}: ${l.reason}`);t.scan.stopped_at&&n.push(`the file is cut off at byte ${t.scan.stopped_at.offset}: ${t.scan.stopped_at.reason}`)}let s={file:i.file,format:{bag:"ROS bag v2.0",db3:"rosbag2 .db3 (SQLite, CDR)",mcap:"MCAP (CDR)"}[t.format]||t.format,size:gp(t.size),index:t.index==="indexed"?"read from the index":"missing or damaged: the file was scanned",chunks:t.chunks,compression:Object.entries(t.compression).map(([l,c])=>`${c} ${l}`).join(", ")||"-",messages:t.messages,"bag time":`${ne(t.start_ns/1e9,6)} s to ${ne(t.end_ns/1e9,6)} s`,"RealSense file version":t.realsense?t.realsense.file_version:"-"},r=Object.entries(e.streams).map(([l,c])=>[l,c.frames,c.numbers?`#${c.numbers[0]}..#${c.numbers[1]}`:"-",c.dropped,c.out_of_order,c.duplicates]),a=(i.chunks||[]).slice(0,_c).map((l,c)=>[c+1,l.offset,l.compression,l.messages,`${ne(l.start,6)} s`,`${ne(l.end,6)} s`]),o=(l,c)=>l&&l.length>_c?tt("p",{},`\u2026 and ${l.length-_c} more ${c}`):null;return xc("structure","Structure",Hu(s),tt("h3",{},"Damage"),n.length?tt("ul",{id:"damage"},n.map(l=>tt("li",{},l))):tt("p",{id:"damage"},"none found"),tt("h3",{},"Frames (rsbag check)"),zn(["stream","frames","numbers","dropped","out of order","duplicates"],r,{id:"check-table"}),tt("h3",{},"Topics"),zn(["topic","type","messages"],t.topics.map(l=>[l.topic,l.type,l.messages]),{id:"topics"}),i.connections?tt("h3",{},"Connections"):null,i.connections?zn(["id","topic","type","md5sum","messages"],i.connections.slice(0,_c).map(l=>[l.id,l.topic,l.type,l.md5sum,l.messages]),{id:"connections"}):null,o(i.connections,"connections"),i.chunks?tt("h3",{},"Chunks"):null,i.chunks?zn(["#","offset","compression","messages","from","to"],a,{id:"chunks"}):null,o(i.chunks,"chunks"))}function vc(i){let e=new DataView(i).getUint32(0,!0),n=new Uint8Array(i,4,e),s=JSON.parse(new TextDecoder().decode(n)),r=new Uint8Array(i,4+e);if(!s.colors)return{header:s,pixels:r};let a=2*s.width*s.height;return{header:s,pixels:r.subarray(0,a),colors:r.subarray(a)}}function $m(i){let t=atob(i),e=new Uint8Array(t.length);for(let n=0;n<t.length;n++)e[n]=t.charCodeAt(n);return e.buffer}var Wu=class{constructor(t){this.recording=t,this.live=!0}async frame(t,e,n=null,s=""){let r=n?`&max_width=${n}`:"",a=`api/frame?stream=${encodeURIComponent(t)}&index=${e}${r}${s}`,o=await fetch(a);if(!o.ok)throw new Error(`${t} frame ${e}: ${await o.text()}`);return vc(await o.arrayBuffer())}async cloud(t,e,n=""){let s=`api/cloud?stream=${encodeURIComponent(t)}&index=${e}${n}`,r=await fetch(s);if(!r.ok)throw new Error(`${t} point cloud ${e}: ${await r.text()}`);return ru(await r.arrayBuffer())}},Xu=class{constructor(t){this.recording=t.recording,this.live=!1,this.frames={};for(let[e,n]of Object.entries(t.frames))this.frames[e]=n.map(s=>vc($m(s)));this.clouds={};for(let[e,n]of Object.entries(t.clouds||{}))this.clouds[e]=n.map(s=>ru($m(s)))}async cloud(t,e){let n=this.clouds[t]||[],s=n.filter(r=>r.header.index<=e).pop()||n[0];if(!s)throw new Error(`the report holds no point cloud of ${t}`);return s}async frame(t,e){let n=this.frames[t]||[],s=n[0];for(let r of n)r.header.index<=e&&(s=r);if(!s)throw new Error(`the report holds no frame of ${t}`);return s}};async function Ym(){let i=document.getElementById("rsbag-report");if(i)return new Xu(JSON.parse(i.textContent));let t=await fetch("api/recording");if(!t.ok)throw new Error(`the recording: ${await t.text()}`);return new Wu(await t.json())}var ub=250,qu=5,db=1,fb=10,Zm=5e3,Jm=[["x","#d62728"],["y","#2ca02c"],["z","#1f77b4"]],pb={Gyro:"rad/s",Accel:"m/s\xB2"},$u=i=>new Promise(t=>setTimeout(t,i)),mb=()=>new Promise(i=>requestAnimationFrame(i));async function gb(i){let t=await fetch(`api/live/record?action=${i}`,{method:"POST"}),e=await t.text();if(!t.ok)throw new Error(e);return JSON.parse(e)}var Yu=class{constructor(t,e){this.stream=t,this.viewer=e,this.canvas=tt("canvas",{class:"frame","data-stream":t.key}),this.caption=tt("div",{class:"frame-info","data-stream":t.key},"waiting for a frame\u2026"),this.figure=tt("figure",{class:"stream","data-stream":t.key},tt("figcaption",{},`${t.key} \xB7 ${t.format} ${t.width}\xD7${t.height} @ ${t.fps}`),this.canvas,this.caption),t.kind==="depth"&&(this.legend=tt("canvas",{class:"legend",width:256,height:1,"data-stream":t.key}),this.legendLabels=tt("div",{class:"legend-labels"}),this.figure.append(this.legend,this.legendLabels)),this.shown=null,this.canvas.addEventListener("mousemove",n=>this.hover(n)),this.canvas.addEventListener("mouseleave",()=>e.tooltip.hide())}shownWidth(){let t=this.canvas.clientWidth||this.figure.clientWidth||480;return Math.ceil(t*(window.devicePixelRatio||1))}async run(){let t=encodeURIComponent(this.stream.key);for(;;)try{let e=this.shown?`&after=${this.shown.header.index}`:"",n=this.shownWidth(),s=this.stream.width>n?`&max_width=${n}`:"",r=await fetch(`api/live/frame?stream=${t}${e}${s}`);if(r.status===204){await $u(fb);continue}if(!r.ok)throw new Error(await r.text());this.draw(vc(await r.arrayBuffer())),await mb()}catch(e){this.caption.textContent=String(e.message||e),await $u(500)}}draw(t){this.shown=t;let{header:e}=t;(this.canvas.width!==e.width||this.canvas.height!==e.height)&&(this.canvas.width=e.width,this.canvas.height=e.height),this.canvas.getContext("2d").putImageData(hu(t,this.viewer.depthRange),0,0),this.canvas.dataset.number=e.number,this.caption.textContent=`frame #${e.number} \xB7 ${ne(e.timestamp,3)} ms (${e.domain})`,this.legend&&this.drawLegend(),this.viewer.noteShown({stream:this.stream.key,index:e.index,number:e.number,t:e.t})}drawLegend(){let{near:t,far:e}=this.viewer.depthRange,n=new ImageData(256,1);Wa.forEach(([s,r,a],o)=>n.data.set([s,r,a,255],4*o)),this.legend.getContext("2d").putImageData(n,0,0),this.legend.dataset.near=t,this.legend.dataset.far=e,this.legendLabels.replaceChildren(...[0,.25,.5,.75,1].map(s=>tt("span",{},`${ne(t+s*(e-t),2)} m`)))}hover(t){if(!this.shown)return;let{header:e}=this.shown,n=this.canvas.getBoundingClientRect(),s=Math.floor((t.clientX-n.left)/n.width*e.width),r=Math.floor((t.clientY-n.top)/n.height*e.height);if(s<0||r<0||s>=e.width||r>=e.height)return;let a=Math.ceil(e.full_width/e.width),o=a===1?`${s}, ${r}`:`${s*a}, ${r*a} (every ${a}th pixel shown)`;this.viewer.tooltip.show(t,[`${e.stream} frame #${e.number}`,`timestamp ${ne(e.timestamp,3)} ms, ${e.domain}`,`pixel ${o}: ${uu(this.shown,s,r)}`,...Object.entries(e.metadata).map(([l,c])=>`${l}: ${c}`)])}},Zu=class{constructor(t){this.stream=t,this.data=[[],[],[],[]],this.node=tt("figure",{class:"plot","data-stream":t.key},tt("figcaption",{},`${t.key} (${pb[t.name]||""}), the last ${qu} s`));let e={width:600,height:180,scales:{x:{time:!1,auto:!1}},axes:[{label:"s"},{}],series:[{label:"t (s)"},...Jm.map(([n,s])=>({label:n,stroke:s,width:1}))],legend:{live:!1}};this.chart=new gn(e,this.data,this.node)}add(t,e){t&&(this.data[0].push(...t.t),Jm.forEach(([r],a)=>this.data[a+1].push(...t[r])));let n=this.data[0].findIndex(r=>r>=e-qu),s=n<0?this.data[0].length:n;s>0&&this.data.forEach(r=>r.splice(0,s)),this.chart.setData(this.data,!1),this.chart.setScale("x",{min:e-qu,max:e})}resize(t){this.chart.setSize({width:t,height:180})}},Ju=class{constructor(t,e){this.document=t,this.tooltip=e,this.depthRange={near:.3,far:4},this.views=t.streams.filter(n=>n.kind==="depth"||n.kind==="image").map(n=>new Yu(n,this)),this.plots=t.streams.filter(n=>n.kind==="motion").map(n=>new Zu(n)),this.framesShown=[],this.history={},this.rates={},this.status=null,this.since=-1}noteShown(t){this.framesShown.push(t),this.framesShown.length>2*Zm&&this.framesShown.splice(0,Zm)}sensorName(t){let e=this.document.summary.realsense.sensors[t];return e?e.name:`sensor ${t}`}seek(){}build(t){let e=this.document.device,n=tt("header",{},tt("h1",{},`${e.Name||"camera"} ${e["Serial Number"]||""}`),tt("span",{class:"facts"},`live \xB7 librealsense ${this.document.library.version} \xB7 ${this.document.streams.length} streams`));this.recordButton=tt("button",{id:"record",type:"button",onclick:()=>this.toggleRecording()},"Record"),this.recordStatus=tt("span",{id:"record-status"},`recordings go to ${this.document.record_to.dir} (.${this.document.record_to.format})`);let s=tt("input",{id:"depth-near",type:"number",step:.1,min:0,value:this.depthRange.near}),r=tt("input",{id:"depth-far",type:"number",step:.1,min:0,value:this.depthRange.far}),a=()=>{let[c,h]=[Number(s.value),Number(r.value)];h>c&&c>=0&&(this.depthRange={near:c,far:h})};s.addEventListener("change",a),r.addEventListener("change",a),this.rateTable=tt("div",{id:"live-rates"}),this.recordings=tt("ul",{id:"recordings"});let o=tt("div",{id:"plots"},this.plots.map(c=>c.node));this.plots.length===0&&o.append(tt("p",{},"The camera streams no IMU.")),new ResizeObserver(()=>{let c=Math.max(300,o.clientWidth-20);for(let h of this.plots)h.resize(c)}).observe(o);let l=tt("div",{id:"pictures"},this.views.map(c=>c.figure));this.views.length===0&&l.append(tt("p",{},"The camera streams no video.")),t.append(n,tt("div",{id:"controls"},this.recordButton,this.recordStatus,tt("label",{},"depth from ",s," to ",r," m")),l,tt("h2",{},"Streams"),this.rateTable,tt("h2",{},"IMU"),o,tt("h2",{},"Recordings"),this.recordings,tt("div",{class:"panels"},yc(this.document,this)));for(let c of this.views)c.run();this.poll()}async poll(){for(;;){try{let t=await fetch(`api/live/status?since=${this.since}`);if(!t.ok)throw new Error(await t.text());this.update(await t.json())}catch(t){this.recordStatus.textContent=`the camera's status: ${t.message||t}`}await $u(ub)}}update(t){this.status=t;let e=this.document.streams.map(n=>{var l,c;let s=t.streams[n.key],r=(l=this.history)[c=n.key]||(l[c]=[]);for(r.push([t.t,s.received]);r.length>2&&r[1][0]<=t.t-db;)r.shift();let[a,o]=r[0];return this.rates[n.key]=t.t>a?(s.received-o)/(t.t-a):0,s.samples&&s.samples.t.length&&(this.since=Math.max(this.since,...s.samples.t)),[n.key,n.format,n.width?`${n.width}\xD7${n.height}`:"-",n.fps,ne(this.rates[n.key],1),s.received,s.missed,n.kind==="motion"?"-":s.not_shown]});this.rateTable.replaceChildren(zn(["stream","format","size","fps","measured fps","frames","dropped by the camera","not shown"],e,{id:"rate-table"}));for(let n of this.plots)n.add(t.streams[n.stream.key].samples,t.t);this.showRecording(t)}showRecording(t){let e=t.recording;if(e&&e.path){let n=Object.values(e.streams),s=n.reduce((a,o)=>a+o.written,0),r=n.reduce((a,o)=>a+o.dropped,0);this.recordStatus.textContent=`recording ${e.path}: ${ne(e.elapsed_s,1)} s, ${s} frames, ${r} dropped${e.failure?`: ${e.failure}`:""}`,this.recordButton.textContent="Stop recording"}else e||(this.recordButton.textContent="Record");this.recordButton.disabled=!!(e&&e.busy),t.playback_finished&&(this.recordStatus.textContent="the simulated camera played its recording to the end"),this.recordings.replaceChildren(...t.finished.map(n=>tt("li",{"data-path":n.path},n.error?`${n.path}: ${n.error}`:`${n.path}: ${ne(n.duration_s,2)} s, ${Object.values(n.streams).reduce((s,r)=>s+r.written,0)} frames, ${n.bytes} bytes`)))}async toggleRecording(){let t=this.status&&this.status.recording;this.recordButton.disabled=!0;try{let e=await gb(t?"stop":"start");this.recordStatus.textContent=t?`wrote ${e.path}`:`recording ${e.path}`,this.recordButton.textContent=t?"Record":"Stop recording",this.status={...this.status,recording:t?null:e}}catch(e){this.recordStatus.textContent=String(e.message||e)}this.recordButton.disabled=!1}state(){return{live:!0,document:this.document,status:this.status,rates:this.rates,shown:Object.fromEntries(this.views.filter(t=>t.shown).map(t=>[t.stream.key,t.shown])),framesShown:this.framesShown,plots:Object.fromEntries(this.plots.map(t=>[t.stream.key,t.chart]))}}};async function Km(i,t){let e=await fetch("api/live");if(!e.ok)throw new Error(`the camera: ${await e.text()}`);let n=new Ju(await e.json(),t);return n.build(i),n}var _b={motion:[["x","#d62728"],["y","#2ca02c"],["z","#1f77b4"]],pose:[["tx","#d62728"],["ty","#2ca02c"],["tz","#1f77b4"]]},xb={Gyro:"rad/s",Accel:"m/s\xB2",Pose:"m"},Ku=class{constructor(t,e){this.stream=t;let n=_b[t.kind],s=[t.frames.t,...n.map(([a])=>t.samples[a])];this.node=tt("figure",{class:"plot","data-stream":t.key},tt("figcaption",{},`${t.key} (${xb[t.name]||""}), ${t.frames.t.length} samples`)),this.cursor=tt("div",{class:"plot-cursor"});let r={width:600,height:180,scales:{x:{time:!1}},axes:[{label:"s"},{}],series:[{label:"t (s)"},...n.map(([a,o])=>({label:a,stroke:o,width:1}))],cursor:{sync:{key:"rsbag"},drag:{x:!1,y:!1}},legend:{live:!0}};this.chart=new gn(r,s,this.node),this.chart.over.append(this.cursor),this.chart.over.addEventListener("click",a=>{let o=this.chart.posToVal(a.offsetX,"x");e.seek(Math.min(e.duration,Math.max(0,o)))})}resize(t){this.chart.setSize({width:t,height:180})}showTime(t){let e=this.chart.valToPos(t,"x");this.cursor.style.left=`${e}px`}},Sc=class{constructor(t,e){this.plots=t.streams.filter(n=>(n.kind==="motion"||n.kind==="pose")&&n.samples).map(n=>new Ku(n,e)),this.node=tt("div",{id:"plots"},this.plots.map(n=>n.node)),this.plots.length===0&&this.node.append(tt("p",{},"The recording has no IMU or pose stream.")),new ResizeObserver(()=>{let n=Math.max(300,this.node.clientWidth-20);for(let s of this.plots)s.resize(n)}).observe(this.node)}showTime(t){for(let e of this.plots)e.showTime(t)}charts(){return Object.fromEntries(this.plots.map(t=>[t.stream.key,t.chart]))}};function ju(i,t){return`${i<0||Object.is(i,-0)?"-":"+"}${Math.abs(i).toFixed(t)}`}function Qu(i,t,...e){return tt("section",{id:i,class:"panel"},tt("h2",{},t),...e)}function yb(i){let t=i.summary;return tt("p",{id:"session-clock"},tt("strong",{},`Clock: ${t.clock}`),` \u2014 ${t.clock_reason}.`)}function Qm(i){let t=i.summary.cameras.map((n,s)=>{let r=((i.cameras[s]||{}).summary||{}).realsense,a=r&&r.device&&r.device.Name||"",o=n.span_s?`${n.span_s[0].toFixed(3)} s .. ${n.span_s[1].toFixed(3)} s`:"no frames";return[n.name,n.file,a,n.offset_s?`${ju(n.offset_s,3)} s`:"0",n.streams.join(", "),n.frames,o]}),e=i.summary.overlap_s;return Qu("session","Session",yb(i),tt("p",{},e?`Every camera records from ${e[0].toFixed(3)} s to ${e[1].toFixed(3)} s.`:"The cameras never all record at once."),zn(["camera","file","device","offset","streams","frames","records"],t,{id:"session-cameras"}))}function vb(i){let[t,e]=i.cameras,n={cameras:`${t} / ${e}`,streams:`${i.streams[0]} / ${i.streams[1]}`,overlap:"none (never recording at once)",offset:"",drift:"",without_partner:"",gaps:""};if(!i.overlap_s)return n;if(n.overlap=`${i.overlap_s[0].toFixed(3)} s .. ${i.overlap_s[1].toFixed(3)} s`,i.offset_ms!=null&&i.drift_ppm!=null){n.offset=`${ju(i.offset_ms,3)} ms (${e} minus ${t})`;let s=i.drift_ppm_error!=null?` \xB1 ${i.drift_ppm_error.toFixed(1)}`:"";n.drift=`${ju(i.drift_ppm,1)}${s} ppm`}return n.without_partner=`${i.without_partner[0]} of ${t}, ${i.without_partner[1]} of ${e}`,n.gaps=i.gaps.length===0?"none":i.gaps.map(s=>`${s.camera} recorded nothing from ${s.from_s.toFixed(3)} s to ${s.to_s.toFixed(3)} s`).join("; "),n}var jm=[["cameras","cameras"],["streams","streams compared"],["overlap","both recording"],["offset","clock offset"],["drift","drift"],["without_partner","without partner"],["gaps","gaps"]];function tg(i){let t=i.sync,e=t.pairs.map(s=>{let r=vb(s);return tt("tr",{"data-pair":r.cameras},jm.map(([a])=>tt("td",{"data-column":a},r[a])))}),n=t.read_errors>0?tt("p",{class:"note"},`${t.read_errors} frames could not be read and are not in the report.`):null;return Qu("sync","Sync report",tt("p",{id:"sync-rule"},`On ${t.clock}, frames are partners within ${t.tolerance_ms.toFixed(3)} ms.`),tt("table",{id:"sync-report"},tt("thead",{},tt("tr",{},jm.map(([,s])=>tt("th",{},s)))),tt("tbody",{},e)),t.pairs.length===0?tt("p",{},"No two cameras both have frames."):null,n)}function eg(i){let t=[...i.check.damage,...i.read_errors],e=i.streams.map(n=>[n.key,(i.check.streams[n.key]||{}).dropped||0]).filter(([,n])=>n>0).map(([n,s])=>`${n}: ${s} frames dropped`);return Qu("check","Check",tt("div",{id:"damage"},t.length?t.map(n=>tt("p",{class:"error"},n)):"No damage."),tt("div",{id:"dropped"},e.length?e.map(n=>tt("p",{},n)):"No frames dropped."))}var ls=120,ng=8,di=22,Qr={frame:"#3a6ea5",gap:"#d62728","out of order":"#ff7f0e",duplicate:"#9467bd",option:"#2ca02c",notification:"#e377c2",chunk:["#c7c7c7","#a5a5a5"],cursor:"#111"};function ig(i,t,e){return[...new Set(i.map(s=>s.camera))].map(s=>({name:s===void 0?t:`${s}/${t}`,kind:e,camera:s}))}var Mc=class{constructor(t,e){this.recording=t,this.viewer=e,this.duration=Math.max(t.duration_s,.001),this.view=[0,this.duration],this.lanes=this.makeLanes(t),this.canvas=tt("canvas",{id:"timeline-canvas"}),this.cursorCanvas=tt("canvas",{id:"timeline-cursor"}),this.node=tt("div",{id:"timeline"},this.canvas,this.cursorCanvas),this.marks=[],this.dragging=!1;let n=this.cursorCanvas;n.addEventListener("mousedown",s=>{this.dragging=!0,this.seekAt(s)}),window.addEventListener("mouseup",()=>{this.dragging=!1}),n.addEventListener("mousemove",s=>this.dragging?this.seekAt(s):this.hover(s)),n.addEventListener("mouseleave",()=>e.tooltip.hide()),n.addEventListener("wheel",s=>this.zoom(s),{passive:!1}),n.addEventListener("dblclick",()=>{this.view=[0,this.duration],this.draw()}),new ResizeObserver(()=>this.draw()).observe(this.node)}makeLanes(t){let e=t.streams.map(n=>({name:n.key,kind:"stream",stream:n,findings:(t.check.streams[n.key]||{findings:[]}).findings}));return e.push(...ig(t.options,"Options","options"),...ig(t.notifications,"Notifications","notifications")),t.chunks&&t.chunks.length&&e.push({name:"Chunks",kind:"chunks"}),e}x(t){let[e,n]=this.view;return ls+(t-e)/(n-e)*(this.width-ls-ng)}time(t){let[e,n]=this.view;return e+(t-ls)/(this.width-ls-ng)*(n-e)}draw(){this.width=Math.max(this.node.clientWidth,ls+100);let t=this.lanes.length*di+18;for(let n of[this.canvas,this.cursorCanvas])n.width=this.width,n.height=t;let e=this.canvas.getContext("2d");e.clearRect(0,0,this.width,t),e.font="12px sans-serif",this.marks=[],this.lanes.forEach((n,s)=>this.drawLane(e,n,s*di)),this.drawAxis(e,this.lanes.length*di),this.drawCursor()}drawLane(t,e,n){t.fillStyle=n%(2*di)?"#f7f7f7":"#eef1f5",t.fillRect(0,n,this.width,di),t.fillStyle="#222",t.fillText(e.name,4,n+15);let[s,r]=this.view;if(e.kind==="stream"){this.drawTicks(t,e.stream.frames.t,n);for(let a of e.findings)this.drawFinding(t,e,a,n)}else if(e.kind==="options")for(let a of this.recording.options.filter(o=>o.camera===e.camera)){let o=this.viewer.sensorName(a.sensor,a.camera);this.drawMark(t,a.t,n,Qr.option,"option",[`${a.name} = ${ne(a.value)}`,`${o}, at ${ne(a.t,6)} s`],e)}else if(e.kind==="notifications")for(let a of this.recording.notifications.filter(o=>o.camera===e.camera))this.drawMark(t,a.t,n,Qr.notification,"notification",[`${a.severity} ${a.category}: ${a.description}`,`${this.viewer.sensorName(a.sensor,a.camera)}, at ${ne(a.t,6)} s`],e);else e.kind==="chunks"&&this.recording.chunks.forEach((a,o)=>{if(a.end<s||a.start>r)return;let l=this.x(Math.max(a.start,s)),c=Math.max(this.x(Math.min(a.end,r)),l+1);t.fillStyle=Qr.chunk[o%2],t.fillRect(l,n+5,c-l,di-10),this.marks.push({lane:e.name,kind:"chunk",t:a.start,x0:l,x1:c,y:n+di/2,text:[`chunk ${o+1} at byte ${a.offset}`,`${a.messages} messages, ${a.compression}`,`${ne(a.start,6)} s to ${ne(a.end,6)} s`]})})}drawTicks(t,e,n){let[s,r]=this.view;t.strokeStyle=Qr.frame,t.beginPath();let a=wi(e,s-1e-12)+1;for(;a<e.length&&e[a]<=r;){let o=Math.round(this.x(e[a]));t.moveTo(o+.5,n+4),t.lineTo(o+.5,n+di-4),a=Math.max(a+1,wi(e,this.time(o+.5))+1)}t.stroke()}drawFinding(t,e,n,s){let r=e.stream.frames.t,a=Qr[n.kind],o=n.kind==="gap"?`${n.missing} frame${n.missing===1?"":"s"} dropped before #${n.number} (after #${n.previous_number})`:`#${n.number} ${n.kind} (after #${n.previous_number})`,l=[`${e.name}: ${o}`,`at ${ne(n.t,6)} s, timestamp ${ne(n.timestamp,3)} ms`];if(n.kind!=="gap"){this.drawMark(t,n.t,s,a,n.kind,l,e);return}let c=wi(r,n.t-1e-9),h=c>=0?r[c]:n.t,d=this.x(h),u=Math.max(this.x(n.t),d+3);u<ls||d>this.width||(t.fillStyle=a,t.globalAlpha=.55,t.fillRect(d,s+2,u-d,di-4),t.globalAlpha=1,this.marks.push({lane:e.name,kind:"gap",t:n.t,start:h,x0:d,x1:u,y:s+di/2,text:l,finding:n}))}drawMark(t,e,n,s,r,a,o){let[l,c]=this.view;if(e<l||e>c)return;let h=this.x(e),d=n+di/2;t.fillStyle=s,t.beginPath(),t.moveTo(h,d-6),t.lineTo(h+5,d),t.lineTo(h,d+6),t.lineTo(h-5,d),t.fill(),this.marks.push({lane:o.name,kind:r,t:e,x0:h-5,x1:h+5,y:d,text:a})}drawAxis(t,e){let[n,s]=this.view,r=s-n,a=10**Math.floor(Math.log10(r/5)),o=[1,2,5,10].map(l=>l*a).find(l=>r/l<=10)||a*10;t.fillStyle="#444",t.strokeStyle="#999";for(let l=Math.ceil(n/o)*o;l<=s;l+=o){let c=Math.round(this.x(l))+.5;t.beginPath(),t.moveTo(c,e),t.lineTo(c,e+4),t.stroke();let h=`${ne(l,3)} s`,d=this.width-t.measureText(h).width-1;t.fillText(h,Math.min(c+2,d),e+14)}}drawCursor(){let t=this.cursorCanvas.getContext("2d");t.clearRect(0,0,this.cursorCanvas.width,this.cursorCanvas.height);let e=this.viewer.time;if(e<this.view[0]||e>this.view[1])return;let n=Math.round(this.x(e))+.5;t.strokeStyle=Qr.cursor,t.lineWidth=2,t.beginPath(),t.moveTo(n,0),t.lineTo(n,this.cursorCanvas.height),t.stroke()}seekAt(t){let e=this.cursorCanvas.getBoundingClientRect(),n=t.clientX-e.left;n<ls||this.viewer.seek(Math.min(this.duration,Math.max(0,this.time(n))))}zoom(t){t.preventDefault();let e=this.cursorCanvas.getBoundingClientRect(),n=t.clientX-e.left;if(n<ls)return;let s=this.time(n),r=t.deltaY>0?1.25:.8,[a,o]=this.view,l=Math.min(this.duration,Math.max(1e-4,(o-a)*r)),c=s-(s-a)/(o-a)*l;c=Math.min(Math.max(0,c),this.duration-l),this.view=[c,c+l],this.draw()}hover(t){let e=this.cursorCanvas.getBoundingClientRect(),n=t.clientX-e.left,s=t.clientY-e.top,r=this.lanes[Math.floor(s/di)];if(!r||n<ls){this.viewer.tooltip.hide();return}let a=this.marks.find(o=>o.lane===r.name&&n>=o.x0-2&&n<=o.x1+2);if(a){this.viewer.tooltip.show(t,a.text);return}if(r.kind==="stream"){let o=r.stream.frames,l=Math.max(0,wi(o.t,this.time(n)));if(o.t.length){this.viewer.tooltip.show(t,[`${r.name} frame #${o.number[l]} (${l+1} of ${o.t.length})`,`timestamp ${ne(o.timestamp[l],3)} ms, at ${ne(o.t[l],6)} s`]);return}}this.viewer.tooltip.hide()}};var Sb=[.1,.25,.5,1,2,4,8],sg=1e4,td=1e5,bc=class{constructor(){this.node=tt("div",{id:"tooltip",hidden:""}),document.body.append(this.node)}show(t,e){this.node.replaceChildren(...e.map(s=>tt("div",{},s))),this.node.hidden=!1;let n=Math.min(t.clientX+14,window.innerWidth-this.node.offsetWidth-8);this.node.style.left=`${n+window.scrollX}px`,this.node.style.top=`${t.clientY+14+window.scrollY}px`}hide(){this.node.hidden=!0}},ed=class{constructor(t){this.source=t,this.recording=t.recording,this.session=this.recording.session||null,this.duration=this.recording.duration_s,this.time=0,this.playing=!1,this.speed=1,this.depthRange={near:.3,far:4},this.framesShown=[],this.tooltip=new bc;let e=this.recording.streams.filter(n=>n.kind==="depth");this.depth=new Ql(()=>this.depthSettingsChanged(),e.length>0&&e.every(n=>n.stereo_baseline_mm!=null)),this.depth.range=this.depthRange,this.pictures=new tc(this.recording,t,this),this.cloud=new jl(this.recording,t,this),this.timeline=new Mc(this.recording,this),this.plots=new Sc(this.recording,this)}noteShown(t){this.framesShown.push(t),this.framesShown.length>2*sg&&this.framesShown.splice(0,sg)}sensorName(t,e){let n=e===void 0?this.recording.summary:(this.session.cameras.find(r=>r.name===e)||{}).summary,s=n&&n.realsense;return s&&s.sensors[t]?s.sensors[t].name:`sensor ${t}`}build(t){let e=this.source.live?"":" \xB7 report: thumbnails only",n,s;if(this.session){let a=this.session.summary;n=`session on ${a.clock} \xB7 ${ne(this.duration,3)} s \xB7 ${a.cameras.length} cameras \xB7 ${this.recording.streams.length} streams${e}`,s=[Qm(this.session),tg(this.session),eg(this.recording)],this.pictures.node.classList.add("session")}else n=`${this.recording.summary.format} \xB7 ${ne(this.duration,3)} s \xB7 ${this.recording.streams.length} streams${e}`,s=[yc(this.recording,this),Xm(this.recording),qm(this.recording)];let r=tt("header",{},tt("h1",{},this.recording.file||"recording"),tt("span",{class:"facts"},n));t.append(r,this.controls(),this.pictures.node,this.cloud.stream?this.cloud.node:null,tt("h2",{},"Timeline"),this.timeline.node,tt("h2",{},"IMU and pose"),this.plots.node,tt("div",{class:"panels"},s)),this.timeline.draw(),this.seek(0)}controls(){this.playButton=tt("button",{id:"play",type:"button",onclick:()=>this.playing?this.pause():this.play()},"Play");let t=tt("select",{id:"speed",title:"playback speed"},Sb.map(o=>tt("option",o===1?{value:o,selected:""}:{value:o},`${o}\xD7`)));t.addEventListener("change",()=>{this.speed=Number(t.value)}),this.scrubber=tt("input",{id:"scrubber",type:"range",min:0,max:td,value:0,step:1}),this.scrubber.addEventListener("input",()=>this.seek(this.scrubber.value/td*this.duration)),this.timeLabel=tt("span",{id:"time"});let e=tt("input",{id:"depth-near",type:"number",step:.1,min:0,value:this.depthRange.near}),n=tt("input",{id:"depth-far",type:"number",step:.1,min:0,value:this.depthRange.far}),s=()=>{let[o,l]=[Number(e.value),Number(n.value)];l>o&&o>=0&&(this.depthRange={near:o,far:l},this.depth.setRange(this.depthRange))};e.addEventListener("change",s),n.addEventListener("change",s);let r=tt("button",{id:"previous-frame",type:"button",title:"previous frame (\u2190)",onclick:()=>this.step(-1)},"\u25C0"),a=tt("button",{id:"next-frame",type:"button",title:"next frame (\u2192)",onclick:()=>this.step(1)},"\u25B6");return document.addEventListener("keydown",o=>this.key(o)),tt("div",{id:"controls"},this.playButton,r,a,t,this.scrubber,this.timeLabel,tt("label",{},"depth from ",e," to ",n," m"),this.source.live?this.depth.controls():null)}depthSettingsChanged(){this.pictures.settingsChanged(),this.cloud.settingsChanged()}step(t){this.pause();let e=this.pictures.views.map(n=>{let s=n.stream.frames.t,r=wi(s,this.time);return t>0?s[Math.max(0,r)+1]:s[r]<this.time?s[r]:s[r-1]}).filter(n=>n!==void 0);e.length&&this.seek(t>0?Math.min(...e):Math.max(...e))}key(t){if(["INPUT","SELECT","TEXTAREA","BUTTON"].includes(t.target.tagName)&&t.target.type!=="range")return;let n={" ":()=>this.playing?this.pause():this.play(),ArrowLeft:()=>this.step(-1),ArrowRight:()=>this.step(1),Home:()=>this.seek(0),End:()=>this.seek(this.duration)}[t.key];n&&(t.preventDefault(),n())}seek(t){this.time=Math.min(this.duration,Math.max(0,t));let e=performance.now();this.scrubber.value=this.duration>0?Math.round(this.time/this.duration*td):0;let n=this.session?` on ${this.session.summary.clock}`:"";this.timeLabel.textContent=`${this.time.toFixed(3)} s of ${this.duration.toFixed(3)} s${n}`,this.pictures.showTime(this.time,e),this.cloud.showTime(this.time,e),this.timeline.drawCursor(),this.plots.showTime(this.time)}play(){this.time>=this.duration&&this.seek(0),this.playing=!0,this.playButton.textContent="Pause";let t=performance.now(),e=n=>{this.playing&&(this.seek(this.time+(n-t)/1e3*this.speed),t=n,this.time>=this.duration?this.pause():requestAnimationFrame(e))};requestAnimationFrame(e)}pause(){this.playing=!1,this.playButton.textContent="Play"}state(){return{recording:this.recording,time:this.time,playing:this.playing,shown:this.pictures.shown(),settled:this.pictures.settled()&&this.cloud.settled(),framesShown:this.framesShown,marks:this.timeline.marks,plots:this.plots.charts()}}};async function Mb(){let i=document.getElementById("app");try{if(i.dataset.live)window.rsbagViewer=await Km(i,new bc);else{let t=new ed(await Ym());t.build(i),window.rsbagViewer=t}document.body.dataset.ready="true"}catch(t){i.replaceChildren(tt("p",{class:"error"},`The viewer could not start: ${t.message||t}`)),document.body.dataset.ready="error"}}Mb();})();
